// The real CLI against the fake API: one prompt streams deltas and ends in a result, with the
// scripted usage and the caller's uuid carried through (the stdin line the original forge writes).
import { deepStrictEqual, match, ok, rejects } from "node:assert/strict";
import { ClaudeProcess } from "./process.ts";
import { startHarness } from "../../../tests/claude_support.ts";
import { transcriptPath } from "./paths.ts";
import type { CliFrame, JsonObject } from "./types.ts";

const REPLY = "Hello from the scripted model, in several chunks.";

Deno.test("a prompt streams stream_event deltas, then the assistant frame, then a result", async () => {
  await using h = await startHarness({
    replies: [{
      content: [{ type: "text", text: REPLY }],
      usage: {
        input_tokens: 1234,
        output_tokens: 56,
        cache_creation_input_tokens: 7,
        cache_read_input_tokens: 89,
      },
      chunk_chars: 8,
    }],
  });
  const { proc, log } = h.spawn({ argv: {} });
  const uuid = proc.sendUserMessage("say hello", "0b7e1f4a-9c1d-4e2b-8f3a-5d6c7b8a9e01");
  deepStrictEqual(uuid, "0b7e1f4a-9c1d-4e2b-8f3a-5d6c7b8a9e01");
  const result = await log.next("result");

  // Frame order for one turn (2.1.332): the session state's `running` (forge asks for those
  // frames at launch), command_lifecycle queued/started, system/init, system/status,
  // stream_event message_start .. message_stop with the assistant frame interleaved after the
  // block's deltas, then result, then command_lifecycle completed and the state's `idle`.
  const kinds = log.frames.slice(0, log.frames.indexOf(result) + 1).map(kind);
  deepStrictEqual(kinds.slice(0, 7), [
    "system/session_state_changed",
    "command_lifecycle",
    "command_lifecycle",
    "system/init",
    "system/status",
    "stream_event:message_start",
    "stream_event:content_block_start",
  ]);
  const deltas = log.frames.filter((f) => kind(f) === "stream_event:content_block_delta");
  deepStrictEqual(deltas.length, Math.ceil(REPLY.length / 8));
  deepStrictEqual(
    deltas.map((f) => ((f.event as JsonObject).delta as JsonObject).text).join(""),
    REPLY,
  );
  const assistant = log.frames.find((f) => f.type === "assistant")!;
  deepStrictEqual((assistant.message as JsonObject).content, [{ type: "text", text: REPLY }]);
  ok(kinds.indexOf("assistant") > kinds.indexOf("stream_event:content_block_delta"));
  deepStrictEqual(kinds.at(-2), "stream_event:message_stop");

  deepStrictEqual(result.subtype, "success");
  deepStrictEqual(result.is_error, false);
  deepStrictEqual(result.result, REPLY);
  const usage = result.usage as JsonObject;
  deepStrictEqual(
    [
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
    ],
    [1234, 56, 7, 89],
  );

  // The caller's uuid: command_lifecycle queued -> started -> completed, status lists it.
  await log.waitFor(
    (f) => f.type === "command_lifecycle" && f.state === "completed",
    "lifecycle completed",
  );
  await log.waitFor(
    (f) => f.subtype === "session_state_changed" && f.state === "idle",
    "session state idle",
  );
  deepStrictEqual(log.frames[0].state, "running");
  const lifecycle = log.frames.filter((f) => f.type === "command_lifecycle");
  deepStrictEqual(lifecycle.map((f) => [f.command_uuid, f.state]), [
    [uuid, "queued"],
    [uuid, "started"],
    [uuid, "completed"],
  ]);
  const status = log.frames.find((f) => f.type === "system" && f.subtype === "status")!;
  deepStrictEqual(status.user_message_uuids, [uuid]);

  const exit = await proc.close();
  deepStrictEqual(exit.code, 0);
  deepStrictEqual(log.badLines, []);

  // ...and the transcript's user line carries it.
  const sessionId = String(result.session_id);
  const lines = (await Deno.readTextFile(transcriptPath(h.configDir, h.cwd, sessionId)))
    .trim().split("\n").map((l) => JSON.parse(l));
  const user = lines.find((l) => l.type === "user");
  deepStrictEqual(user.uuid, uuid);
  deepStrictEqual(user.message.content, "say hello");
  // The request the fake saw: one main call with the prompt as the last user text.
  deepStrictEqual(h.api.mainRequests().length, 1);
  match(JSON.stringify(h.api.mainRequests()[0].body?.messages), /say hello/);
});

Deno.test("sendUserMessage refuses a uuid that is not a UUID, and writes nothing", async () => {
  await using h = await startHarness();
  const { proc, log } = h.spawn();
  let threw = "";
  try {
    proc.sendUserMessage("x", "not-a-uuid");
  } catch (e) {
    threw = (e as Error).message;
  }
  match(threw, /not a UUID/);
  // The CLI prints nothing before the first stdin line, and none was written. (Its exit code is
  // not the claim: a CLI still booting on a loaded machine outlives close()'s 5 s after EOF and
  // is ended by its SIGTERM, 143.)
  const exit = await proc.close();
  deepStrictEqual([log.frames.length, h.api.requests.length], [0, 0]);
  ok(exit.code === 0 || exit.code === 143, `exit ${exit.code}`);
});

Deno.test("the driver reports non-JSON stdout lines, keeps reading, and keeps the stderr tail", async () => {
  // Not the CLI: a shell standing in for a misbehaving child, to exercise the reader and tail.
  const script = 'echo "not json"; echo \'{"type":"system","subtype":"x"}\'; ' +
    'head -c 20000 /dev/zero | tr "\\0" e >&2; echo "the end" >&2; exit 3';
  const proc = ClaudeProcess.spawn({
    bin: "sh",
    args: ["-c", script],
    cwd: ".",
    env: { PATH: Deno.env.get("PATH") ?? "" },
  });
  const events = await Array.fromAsync(proc.events());
  deepStrictEqual(events.map((e) => e.kind), ["bad_line", "frame"]);
  deepStrictEqual(events[1], { kind: "frame", frame: { type: "system", subtype: "x" } });
  const exit = await proc.exited;
  deepStrictEqual([exit.code, exit.signal, exit.stderrTail.length], [3, null, 8192]);
  ok(exit.stderrTail.endsWith("eeethe end\n"), exit.stderrTail.slice(-20));
});

Deno.test("close() SIGTERMs a CLI that does not finish within the grace period, and reaps it", async () => {
  await using h = await startHarness({
    replies: [{
      content: [{ type: "text", text: "y".repeat(200) }],
      chunk_chars: 2,
      chunk_delay_ms: 200,
    }],
  });
  const { proc, log } = h.spawn({ closeGraceMs: 1_500 });
  proc.sendUserMessage("slow");
  const isDelta = (f: CliFrame) =>
    f.type === "stream_event" && (f.event as JsonObject).type === "content_block_delta";
  await log.waitFor(isDelta, "a delta");
  const atClose = log.frames.filter(isDelta).length;
  const exit = await proc.close();
  // The CLI finishes the running turn after stdin EOF (20 s here): it went on streaming through
  // the grace, then the SIGTERM ended it and it exited 143 through its own handler. (How long
  // close() takes is the lifecycle bench's figure.)
  ok(log.frames.filter(isDelta).length > atClose, "the turn went on through the grace");
  deepStrictEqual([exit.code, exit.signal], [143, null]);
  await rejects(Deno.stat(`/proc/${proc.pid}`), Deno.errors.NotFound);
});

Deno.test("close() SIGKILLs a child that ignores SIGTERM", async () => {
  // Not the CLI: a shell that ignores TERM and never reads stdin, to reach the last step.
  // It says so on stderr when the TERM comes, so the order (EOF, TERM, KILL) is read, not timed.
  const proc = ClaudeProcess.spawn({
    bin: "sh",
    args: ["-c", "trap 'echo got TERM >&2' TERM; while :; do sleep 0.05; done"],
    cwd: ".",
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    closeGraceMs: 100,
    termGraceMs: 200,
  });
  const exit = await proc.close();
  deepStrictEqual(exit.signal, "SIGKILL");
  match(proc.stderrTail, /got TERM/, "the TERM came first and was ignored");
});

Deno.test("close() leaves no tool process behind: a background Bash ends with the CLI", async () => {
  await using h = await startHarness({
    replies: [
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "sleep 300", description: "bg", run_in_background: true },
        }],
      },
      { content: [{ type: "text", text: "started" }] },
    ],
  });
  const { proc, log } = h.spawn({
    closeGraceMs: 300,
    canUseTool: (req) => ({ behavior: "allow", updatedInput: req.input }),
  });
  proc.sendUserMessage("start a background sleep");
  await log.next("result");
  const sleeper = descendants(proc.pid).find((pid) => cmdline(pid).startsWith("sleep 300"));
  ok(sleeper, "the background sleep runs under the CLI");
  // On stdin EOF the CLI waits for its background task, so the grace runs out; SIGTERM makes the
  // CLI end the task itself (a SIGKILL alone orphans it).
  await proc.close();
  // Ended, it may sit a moment as a zombie until init collects it; it must not run on.
  for (let i = 0; i < 150 && cmdline(sleeper!) !== ""; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  deepStrictEqual(cmdline(sleeper!), "", "the background sleep ended with the CLI");
});

function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      parent.set(Number(e.name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

function cmdline(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

function kind(f: CliFrame): string {
  if (f.type === "stream_event") return `stream_event:${(f.event as JsonObject).type}`;
  return f.subtype ? `${f.type}/${f.subtype}` : f.type;
}

Deno.test("a spawn that cannot start says which is missing: the folder or the program", () => {
  const dir = Deno.makeTempDirSync({ prefix: "forge-spawn-" });
  const attempt = (bin: string, cwd: string) => {
    try {
      ClaudeProcess.spawn({ bin, cwd, args: [], env: {} });
    } catch (err) {
      return (err as Error).message;
    }
    return "started";
  };
  try {
    deepStrictEqual(
      attempt("/bin/true", `${dir}/gone`),
      `claude: cannot start /bin/true in ${dir}/gone: that folder is not there`,
    );
    deepStrictEqual(
      attempt(`${dir}/no-claude`, dir),
      `claude: cannot start ${dir}/no-claude in ${dir}: that program is not there`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
