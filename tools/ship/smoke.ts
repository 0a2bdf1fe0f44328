/**
 * The smoke run every build step ends with: start what was built on a free port, wait for its
 * `LISTENING host:port` line, dial `/socket` and read the greeting. A build that cannot do that
 * is not a build, whatever its exit status said (a `deno compile` fed the wrong runtime writes a
 * file that is only the Deno CLI and answers `unexpected argument '--port'`).
 *
 *   tools/deno.sh run -A tools/ship/smoke.ts [--timeout-secs N] -- <command> [args...]
 *
 * The command is run with `--port 0 --gateway-port 0 --config <a temp dir's forge.toml>` added,
 * `HOME` and the cache dirs pointed into that temp dir, and its own working directory there.
 */
import { Greeting, PROTOCOL_VERSION } from "../../protocol/mod.ts";

export type SmokeResult =
  | { ok: true; port: number; forgeVersion: string; stderr: string }
  | { ok: false; why: string };

export interface SmokeOptions {
  /** How long the whole run may take before it is called a failure (the first run extracts). */
  timeoutMs?: number;
  /** More environment for the command. */
  env?: Record<string, string>;
}

/** The last lines of a process's output, for a failure's sentence. */
const tail = (text: string) => text.trim().split("\n").slice(-6).join("\n") || "(nothing)";

/** Runs `command` in a temp dir and reports whether it served a greeting. */
export async function smokeRun(command: string[], opts: SmokeOptions = {}): Promise<SmokeResult> {
  const dir = await Deno.makeTempDir({ prefix: "forge-smoke-" });
  await Deno.writeTextFile(
    `${dir}/forge.toml`,
    "# the smoke run's config: the built-in defaults\n",
  );
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command[0], {
      args: [
        ...command.slice(1),
        "--port",
        "0",
        "--gateway-port",
        "0",
        "--config",
        `${dir}/forge.toml`,
      ],
      cwd: dir,
      env: {
        HOME: dir,
        XDG_CACHE_HOME: `${dir}/cache`,
        CLAUDE_CONFIG_DIR: `${dir}/claude`,
        ...opts.env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    await Deno.remove(dir, { recursive: true });
    return { ok: false, why: `${command[0]} could not be started: ${(err as Error).message}` };
  }
  let out = "";
  let err = "";
  const stderrDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const listening = await readListening(child, (s) => (out += s));
    if (listening === null) {
      const status = await child.status;
      await stderrDone;
      const how = status.signal === "SIGKILL"
        ? `did not print LISTENING within ${timeoutMs / 1000} s`
        : `exited (status ${status.code}) without printing LISTENING`;
      return { ok: false, why: `${command[0]} ${how}; its last words:\n${tail(err + out)}` };
    }
    const greeting = await readGreeting(`ws://${listening.host}:${listening.port}/socket`);
    if (typeof greeting === "string") {
      return { ok: false, why: `${command[0]} listened on ${listening.port} but ${greeting}` };
    }
    // Stop it before reading stderr whole: what it said on the way up is the caller's to judge.
    child.kill("SIGTERM");
    await child.status;
    await stderrDone;
    return { ok: true, port: listening.port, forgeVersion: greeting.forge_version, stderr: err };
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGTERM");
    } catch {
      // It already exited.
    }
    await child.status;
    await stderrDone.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Reads stdout until the LISTENING line; null when the process ends first. */
async function readListening(
  child: Deno.ChildProcess,
  seen: (s: string) => void,
): Promise<{ host: string; port: number } | null> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return null;
    text += value;
    seen(value);
    const m = /LISTENING (\S+):(\d+)/.exec(text);
    if (m) {
      // Keep draining so a chatty server never blocks on a full pipe.
      (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { host: m[1] === "0.0.0.0" ? "127.0.0.1" : m[1], port: Number(m[2]) };
    }
  }
}

/** Dials the socket and reads its first frame: the greeting, or a sentence saying what came. */
function readGreeting(url: string): Promise<Greeting | string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const done = (v: Greeting | string) => {
      ws.onmessage = ws.onerror = ws.onclose = null;
      ws.close();
      resolve(v);
    };
    ws.onerror = () => done(`the socket at ${url} could not be opened`);
    ws.onclose = () => done(`the socket at ${url} closed before a greeting`);
    ws.onmessage = (e) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(e.data));
      } catch {
        return done("its first frame was not JSON");
      }
      const parsed = Greeting.safeParse(frame);
      if (!parsed.success) {
        return done(`its first frame was not a greeting: ${String(e.data).slice(0, 200)}`);
      }
      if (parsed.data.version !== PROTOCOL_VERSION) {
        return done(`it greeted with protocol ${parsed.data.version}, not ${PROTOCOL_VERSION}`);
      }
      done(parsed.data);
    };
  });
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--");
  const command = at >= 0 ? Deno.args.slice(at + 1) : [];
  const t = Deno.args.indexOf("--timeout-secs");
  if (command.length === 0) {
    console.error("usage: smoke.ts [--timeout-secs N] -- <command> [args...]");
    Deno.exit(2);
  }
  const result = await smokeRun(command, {
    timeoutMs: t >= 0 && t < at ? Number(Deno.args[t + 1]) * 1000 : undefined,
  });
  if (!result.ok) {
    console.error(`forge smoke: FAILED: ${result.why}`);
    Deno.exit(1);
  }
  console.log(`forge smoke: ok: ${result.forgeVersion} greeted on port ${result.port}`);
  // Its log records are JSON lines; anything else it printed on the way up is shown.
  const other = result.stderr.split("\n").filter((l) => l.trim() && !l.startsWith("{"));
  if (other.length) console.log(`forge smoke: it also said:\n${other.join("\n")}`);
}
