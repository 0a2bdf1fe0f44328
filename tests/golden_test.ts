// Golden tier: each snapshot is built from a live seat - the real CLI against the fake
// Messages API, in-process forge - validated against its protocol/ schema and checked field by
// field against the shape recorded in fixtures/golden/, so a drift fails here rather than in a
// client. spec: What a subject carries > home, session, usage, board.
import { BoardSnapshot, HomeSnapshot, SessionSnapshot } from "../protocol/mod.ts";
import { UsageSnapshotSchema } from "../protocol/usage.ts";
import { assert, assertEquals } from "./assert.ts";
import { checkGolden } from "./golden_shape.ts";
import {
  chatOf,
  command,
  seatWorld,
  subscribeSeat,
  typedUpdateOf,
  updateOf,
} from "./seats_harness.ts";

type Msg = Record<string, unknown>;

/** Parts whose inside is a raw CLI frame or another module's own schema (see golden_shape.ts). */
const SESSION_OPAQUE = [
  "conversation.turns[].messages",
  "conversation.cron_names",
  "mcp",
  "git",
  "diff",
  "reviews",
  "file_index",
  "terminal",
  "pr",
  "failure",
  // The context reading lands when the CLI answers the probe: a number or null by timing.
  "header.context.percent",
  "header.context.max_tokens",
  // A walk's memory and clock are numbers; the tree's first row is the CLI (recorded).
  "background_tasks",
];
const HOME_OPAQUE = ["accounts", "agents[].last_activity", "agents[].work"];

Deno.test("golden: home, session (idle, mid-turn, ask parked, no session), usage and board", async () => {
  await using world = await seatWorld([{ name: "alpha" }, { name: "beta", autoStart: false }]);
  // beta is a git repository nobody starts: its record still reads the tree.
  for (
    const args of [
      ["init", "-q", "-b", "main"],
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"],
    ]
  ) {
    const out = await new Deno.Command("git", { args, cwd: world.projectDir("beta") }).output();
    assert(out.success, `git ${args[0]}`);
  }
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const drift: string[] = [];
  const session = async (name: string, snap: unknown) => {
    const parsed = SessionSnapshot.safeParse(snap);
    assert(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues.slice(0, 4))}`);
    drift.push(...await checkGolden(name, snap, SESSION_OPAQUE));
  };

  await subscribeSeat(c, lead, true);
  // --- idle, after a whole turn -------------------------------------------------------------
  command(c, "prompt", { key: lead, text: "[[script:hello]] say hello", attachments: [] });
  await c.next((m) => chatOf(m)?.type === "result", 30_000);
  // A held seat is walked once a second: the idle read waits for a walk to have landed.
  await c.next((m) => !!updateOf(m, "processes_changed"), 10_000);
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  const idle = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as Msg;
  assertEquals((idle.header as Msg).turn_in_flight, false);
  assert((idle.header as Msg).model !== null, "the header names the CLI's model");
  await session("session_idle", idle);

  // --- with an ask parked -------------------------------------------------------------------
  command(c, "prompt", { key: lead, text: "[[script:bash]] make a file", attachments: [] });
  const asked = typedUpdateOf(
    await c.next((m) => !!updateOf(m, "permission_request"), 30_000),
    "permission_request",
  )!;
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  const parked = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as Msg;
  const front = parked.pending_ask as { request: { tool_call: Msg } };
  assertEquals(
    [front.request.tool_call.raw_output, front.request.tool_call.task_metadata],
    [null, null],
  );
  await session("session_ask", parked);
  // Home while the ask waits: the lead's row names it.
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  const homeParsed = HomeSnapshot.safeParse(home);
  assert(homeParsed.success, `home: ${JSON.stringify(homeParsed.error?.issues.slice(0, 4))}`);
  const row = (home.agents as Msg[]).find((a) => (a.slot as Msg).project === "alpha")!;
  assertEquals([row.pending, row.pending_depth, row.failed_turn], ["permission", 0, null]);
  const alpha = (home.projects as { project: { sessions: Msg[] } }[])[0].project;
  assert(alpha.sessions.length > 0, "the project's catalog lists the live transcript");
  drift.push(...await checkGolden("home", home, HOME_OPAQUE));
  command(c, "respond_permission", {
    key: lead,
    tool_id: asked.tool_id,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  await c.next((m) => chatOf(m)?.type === "result", 30_000);

  // --- mid-turn -----------------------------------------------------------------------------
  command(c, "prompt", { key: lead, text: "[[script:slow]] count slowly", attachments: [] });
  await c.next((m) => {
    const delta = (chatOf(m)?.event as Msg | undefined)?.delta as Msg | undefined;
    return delta?.type === "text_delta" && delta.text === "one ";
  }, 30_000);
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  const running = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as Msg;
  assertEquals((running.header as Msg).turn_in_flight, true);
  await session("session_mid_turn", running);
  command(c, "cancel", { key: lead });
  await c.next((m) => !!updateOf(m, "turn_cancelled"), 30_000);

  // --- a declared lead with no session ------------------------------------------------------
  c.send({ kind: "subscribe", what: { session: world.lead("beta") } });
  const none = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as Msg;
  assertEquals((none.header as Msg).session_id, null);
  assertEquals((none.work as Msg).gate, "in_repo");
  assert(none.git !== null, "a seat with no session still carries its tree's git view");
  await session("session_no_session", none);

  // --- usage and board ----------------------------------------------------------------------
  c.send({ kind: "subscribe", what: "usage" });
  const usage = (await c.next((m) => m.kind === "snapshot" && m.subject === "usage")).data;
  assert(UsageSnapshotSchema.safeParse(usage).success, "usage parses against its schema");
  drift.push(...await checkGolden("usage", usage, []));
  command(c, "task_create", { project: "alpha", subject: "golden row", parent: null });
  await c.next((m) => !!updateOf(m, "tasks_changed"), 10_000);
  c.send({ kind: "subscribe", what: "board" });
  const board = (await c.next((m) => m.kind === "snapshot" && m.subject === "board")).data;
  assert(BoardSnapshot.safeParse(board).success, "board parses against its schema");
  drift.push(...await checkGolden("board", board, []));

  assertEquals(drift, [], "every snapshot keeps its recorded shape");
  await forge.stop();
});
