// Spawned tier: forge runs as a process; its seats run the real claude CLI against the fake API.
// spec: more, page ("A page that cannot be answered is REFUSED"; "The cursor is a position");
// seat_range, seat_frames ("numbered to END at the range's end"; an epoch that is not the
// occupant's is an error naming seat_range); session > conversation (the newest turns, the
// cursor, the tool record bound); resume and restart lose nothing.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { referenceRows } from "./conversation_support.ts";
import { taskEnding } from "../server/workspace/conversation/turns.ts";
import { projectSlug } from "../server/workspace/claude/paths.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";
import type { CliFrame, Slot } from "../protocol/mod.ts";
import { foldRun } from "../server/workspace/stream_fold.ts";

type Msg = Record<string, unknown>;
type Turn = { key: string | null; messages: Msg[] };
type Conversation = { turns: Turn[]; cursor: string | null; compaction_count?: number };

const SCRIPT = {
  named: {
    tool: [
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "seq 1 600", description: "count to six hundred" },
        }],
      },
      { content: [{ type: "text", text: "counted" }] },
    ],
    bgshort: [
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "echo first; sleep 2", description: "a job", run_in_background: true },
        }],
      },
      { content: [{ type: "text", text: "started" }] },
    ],
    hello: [{
      content: [
        { type: "thinking", thinking: "A short greeting will do; nothing more is asked for." },
        { type: "text", text: "Hello from the scripted model, streamed in small pieces." },
      ],
      chunk_chars: 4,
    }],
  },
};

async function more(c: ForgeClient, slot: Slot, before: string | null, turns: number) {
  c.send({ kind: "more", conversation: slot, before, turns });
  const page = await c.next((m) => m.kind === "page" || m.kind === "error", 30_000);
  assertEquals(page.kind, "page", JSON.stringify(page));
  assertEquals(page.conversation, slot);
  return page as unknown as Conversation;
}

/** Walks `more` from the newest page to the first row; answers every page, newest first. */
async function walk(c: ForgeClient, slot: Slot, turns: number) {
  const pages: Conversation[] = [await more(c, slot, null, turns)];
  for (let cursor = pages[0].cursor; cursor !== null;) {
    const p = await more(c, slot, cursor, turns);
    assert(p.turns.length > 0 && p.turns.length <= turns, `${p.turns.length} turns`);
    pages.push(p);
    cursor = p.cursor;
  }
  return pages;
}

/** Each turn's uuids the transcript also holds, oldest turn first: where the turns begin. */
function turnsOf(pages: Conversation[], rows: Set<string>): string[][] {
  return [...pages].reverse().flatMap((p) => p.turns).map((t) =>
    t.messages.map((m) => m.uuid).filter((u): u is string => typeof u === "string" && rows.has(u))
  );
}

/** The uuids a walk carried that the transcript also holds, oldest first. */
function carried(pages: Conversation[], rows: Set<string>): string[] {
  return [...pages].reverse().flatMap((p) => p.turns.flatMap((t) => t.messages))
    .map((m) => m.uuid)
    .filter((u): u is string => typeof u === "string" && rows.has(u));
}

/**
 * The transcript's rows, oldest first: the uuids a walk must carry each once, and the calls whose
 * endings it holds. The live stream reports an ending as the CLI's own `system/task_notification`
 * frame and never sends the ending's row, so a page from the window carries the frame instead.
 */
async function transcriptRows(path: string): Promise<{ uuids: string[]; endings: string[] }> {
  const uuids: string[] = [];
  const endings: string[] = [];
  for (const { frame } of await referenceRows(path)) {
    const ending = taskEnding(frame);
    if (ending) endings.push(ending.tool_use_id);
    else if (typeof frame.uuid === "string") uuids.push(frame.uuid);
  }
  return { uuids, endings };
}

/** Whether a walk carries each ending: as its row (read from disk) or as the CLI's frame. */
function endingsCarried(pages: Conversation[], endings: string[]): boolean {
  const frames = pages.flatMap((p) => p.turns.flatMap((t) => t.messages));
  return endings.every((id) =>
    frames.some((m) =>
      m.tool_use_id === id || (m.type === "user" && JSON.stringify(m.message).includes(id) &&
        JSON.stringify(m.message).includes("task-notification"))
    )
  );
}

async function turn(c: ForgeClient, slot: Slot, text: string, results = 1): Promise<Msg[]> {
  const mark = c.frames.length;
  command(c, "prompt", { key: slot, text, attachments: [] });
  for (let i = 0; i < results; i++) {
    await c.next((m) => chatOf(m)?.type === "result" && sameKey(m, slot), 60_000);
  }
  return c.frames.slice(mark).flatMap((f) => f.type === "json" ? [f.data] : []);
}

function sameKey(m: Msg, slot: Slot): boolean {
  const u = m.update as Record<string, { key?: Slot }> | undefined;
  const key = u ? Object.values(u)[0]?.key : undefined;
  return key?.project === slot.project && key.label === slot.label;
}

Deno.test("a conversation walks from its snapshot to its first row, repairs a gap, refuses another epoch, and survives a restart", async () => {
  const scriptPath = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(scriptPath, JSON.stringify(SCRIPT));
  await using world = await seatWorld(
    [{ name: "alpha" }, { name: "beta", autoStart: false }],
    scriptPath,
  );
  await Deno.remove(scriptPath);
  // A small record bound, so the Bash call's output (2 KiB) is reduced on every path.
  const config = await Deno.readTextFile(world.configPath);
  await Deno.writeTextFile(
    world.configPath,
    config.replace("[server]\n", "[server]\ntool_record_cap_kb = 1\n"),
  );
  const alpha = world.lead("alpha");
  const beta = world.lead("beta");
  const forge = await world.startForge();
  const c = await forge.ready();
  const snap0 = await subscribeSeat(c, alpha, true);
  const session = (snap0.header as { session_id: string }).session_id;
  const transcript = `${world.dir}/claude/projects/${
    projectSlug(world.projectDir("alpha"))
  }/${session}.jsonl`;

  // --- several real turns: plain, a tool call, a background job whose ending the CLI answers
  // in a turn of its own, and a streamed reply whose token runs fold --------------------------
  await turn(c, alpha, "first, plainly");
  await turn(c, alpha, "[[script:tool]] count");
  await turn(c, alpha, "[[script:bgshort]] start a job", 2);
  const streamed = await turn(c, alpha, "[[script:hello]] say hello");
  await turn(c, alpha, "last, plainly");

  // --- a client that dropped a frame repairs it from the window, as it was -------------------
  const numbered = streamed.filter((m) => m.kind === "update" && sameKey(m, alpha));
  const single = numbered.find((m) => m.span === 1 && chatOf(m)?.type === "assistant")!;
  const folded = numbered.find((m) => (m.span as number) > 1)!;
  assert(single && folded, "a single frame and a folded run were streamed");
  const at = single.seq as number;
  c.send({ kind: "seat_range", slot: alpha, epoch: session, from: at, to: at });
  const one = await c.next((m) => m.kind === "seat_frames");
  assertEquals(one.frames, [{ seq: single.seq, update: single.update }]);
  const from = folded.seq as number;
  const to = from + (folded.span as number) - 1;
  c.send({ kind: "seat_range", slot: alpha, epoch: session, from, to });
  const run = (await c.next((m) => m.kind === "seat_frames")).frames as Msg[];
  assertEquals(run.map((f) => f.seq), Array.from({ length: to - from + 1 }, (_, i) => from + i));
  // The repaired frames fold through the same pipeline into the frame that crossed.
  const msgs = run.map((f) => (f.update as { chat_appended: { msg: CliFrame } }).chat_appended.msg);
  assertEquals(foldRun(msgs), chatOf(folded) as CliFrame);
  // --- an epoch that is not the occupant's is refused naming seat_range ------------------------
  c.send({ kind: "seat_range", slot: alpha, epoch: crypto.randomUUID(), from, to });
  const refused = await c.next((m) => m.kind === "error");
  assertEquals([refused.what, refused.seat], ["seat_range", alpha]);
  assertMatch(String(refused.why), /is not the occupant's session/);

  // --- beta: another seat, started by hand, one turn ---------------------------------------
  command(c, "spawn_project", { project_name: "beta", launch_settings: {} });
  await subscribeSeat(c, beta, true);
  await turn(c, beta, "beta speaks once");

  // --- a fresh reader walks alpha from its snapshot to its first row -------------------------
  const reader = await forge.ready();
  reader.send({ kind: "subscribe", what: { session: alpha } });
  const snap = (await reader.next((m) => m.kind === "snapshot")).data as {
    conversation: Conversation;
  };
  assertEquals([snap.conversation.turns.length, snap.conversation.cursor], [5, null]);
  const pages = await walk(reader, alpha, 2);
  const { uuids: rows, endings } = await transcriptRows(transcript);
  assertEquals(carried(pages, new Set(rows)), rows, "every row once, in order");
  assertEquals(endings.length, 1);
  assert(endingsCarried(pages, endings), "the job's ending is carried");
  assertEquals(pages.flatMap((p) => p.turns).length, 5, "five turns: the ending opened none");
  // The Bash record crossed reduced; the transcript keeps it whole.
  const bounded = (ps: Conversation[]) => {
    const bash = ps.flatMap((p) => p.turns.flatMap((t) => t.messages))
      .find((m) => m.type === "user" && JSON.stringify(m.message).includes("599"));
    assert(bash && bash.tool_use_result !== undefined, "the tool result is on a page");
    const record = JSON.stringify(bash.tool_use_result);
    assert(record.length < 1024 && !record.includes("599"), `the record is bounded: ${record}`);
  };
  bounded(pages);
  assert((await Deno.readTextFile(transcript)).includes("599\\n600"), "the transcript keeps it");

  // --- the server restarts mid-conversation -------------------------------------------------
  assertEquals((await forge.stop()).code, 0);
  const again = await world.startForge();
  const c2 = await again.ready();
  const snap2 = await subscribeSeat(c2, alpha, true);
  assertEquals((snap2.header as { session_id: string }).session_id, session, "alpha resumed");
  const resumed = snap2.conversation as Conversation;
  assertEquals(resumed.turns.length, 5, "the snapshot is seeded from the transcript");
  assert(resumed.turns.every((t) => t.key === null), "transcript turns carry no key");
  await turn(c2, alpha, "after the restart");
  const after = await walk(c2, alpha, 3);
  const { uuids: rows2, endings: endings2 } = await transcriptRows(transcript);
  assertEquals(carried(after, new Set(rows2)), rows2, "nothing lost, nothing twice");
  bounded(after);
  // The turns the live window folded are the turns the transcript folds into (spec: where a
  // turn BEGINS is the server's fact): the seeded turns group the same rows.
  const known = new Set(rows2);
  assertEquals(turnsOf(after, known).slice(0, 5), turnsOf(pages, known));
  assert(endingsCarried(after, endings2), "the job's ending is carried");
  assertEquals(rows2.slice(0, rows.length), rows);
  // A cursor from before the restart still pages: it names its session and its turn's row.
  const old = await more(c2, alpha, pages[0].cursor, 2);
  assertEquals(carried([old], known), carried([pages[1]], known));

  // beta did not start again: no session, but its history pages from the book.
  c2.send({ kind: "subscribe", what: { session: beta } });
  const b = (await c2.next((m) => m.kind === "snapshot")).data as {
    header: { session_id: string | null };
    conversation: Conversation;
  };
  assertEquals(b.header.session_id, null);
  assertEquals(b.conversation.turns.length, 1);
  assertEquals(b.conversation.cursor, null);
  c2.send({ kind: "seat_range", slot: beta, epoch: session, from: 0, to: 0 });
  const noSession = await c2.next((m) => m.kind === "error");
  assertEquals([noSession.what, noSession.seat], ["seat_range", beta]);

  // --- a new occupant: the old epoch is refused, the old conversation still pages -----------
  command(c2, "new_session", { key: alpha, cwd: world.projectDir("alpha"), launch_settings: {} });
  await c2.next((m) => !!updateOf(m, "session_replaced") && sameKey(m, alpha), 60_000);
  c2.send({ kind: "seat_range", slot: alpha, epoch: session, from: 0, to: 0 });
  const stale = await c2.next((m) => m.kind === "error");
  assertEquals(stale.what, "seat_range");
  const older = await more(c2, alpha, after[0].cursor, 3);
  assertEquals(carried([older], known), carried([after[1]], known), "the earlier session's page");
  c2.send({ kind: "more", conversation: world.lead("nobody"), before: null, turns: 1 });
  const unknown = await c2.next((m) => m.kind === "error");
  assertEquals(unknown.what, "more");
  assertEquals((await again.stop()).code, 0);
});
