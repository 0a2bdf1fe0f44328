// Spawned tier: forge runs as a process, its lead runs the real claude CLI against the fake
// Messages API (fixtures/board/script.json), scripted to call forge's tasks__* and cron__* tools.
// spec: What a subject carries > board (hears tasks_changed); page > cron_names and session >
// conversation (cron_names); "Not every frame on the stream is the CLI's" (a cron fire and a
// send-back are forged user turns: source cron / forge); the original's task_verdict and
// task_rank commands, and its `cron` and `tasks` tool families.
import { decodeUpdate, fieldsOf, type Task } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { crashLead, requestsWith, untilRequested } from "./board_spawned_support.ts";
import { ManualClock } from "./manual_clock.ts";
import { promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

const SCRIPT = new URL("../fixtures/board/script.json", import.meta.url).pathname;
type Msg = Record<string, unknown>;

const changed = (m: Msg) => m.kind === "update" && decodeUpdate(m.update).name === "tasks_changed";
const tasksOf = (m: Msg): Task[] => fieldsOf(decodeUpdate(m.update), "tasks_changed")!.tasks;

async function boardRows(c: ForgeClient) {
  c.send({ kind: "subscribe", what: "board" });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "board");
  c.send({ kind: "unsubscribe", what: "board" });
  return (snap.data as { projects: { rows: { task: Task }[]; crons: Msg[] }[] }).projects[0];
}

/** Waits for each schedule's `cron_prompt_appended`, in whatever order they come. */
async function untilAppended(c: ForgeClient, ids: string[]): Promise<Msg[]> {
  const seen = new Map<string, Msg>();
  while (seen.size < ids.length) {
    const m = await c.next(
      (f) => ids.includes(String(updateOf(f, "cron_prompt_appended")?.cron_id)),
      60_000,
    );
    const u = updateOf(m, "cron_prompt_appended")!;
    seen.set(String(u.cron_id), u);
  }
  return ids.map((id) => seen.get(id)!);
}

Deno.test("tasks: the agent creates, updates and completes through its tools; the board sees each; a send-back reaches the owner; rank reorders; a restart keeps the board; bad input refused in words", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  let forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const watcher = await forge.ready();
  watcher.send({ kind: "subscribe", what: "board" });
  await watcher.next((m) => m.kind === "snapshot");
  await subscribeSeat(c, lead, true);

  const turn = await promptTurn(c, lead, "[[script:tasks]] track the parser");
  assertEquals(toolResultsOf(turn).map((r) => r.isError), [false, false, false]);
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push(tasksOf(await watcher.next(changed, 30_000))[0]);
  assertEquals(seen.map((t) => [t.subject, t.status]), [
    ["Write the parser", "pending"],
    ["Write the parser", "in_progress"],
    ["Write the parser", "completed"],
  ]);
  assertEquals([seen[2].owner, seen[2].artifact], ["lead", "src/parser.ts"]);

  // A row awaiting verification, sent back: the words reach its owner as a forge prompt.
  await promptTurn(c, lead, "[[script:review]] ship the notes");
  await watcher.next(changed, 30_000);
  const waiting = tasksOf(await watcher.next(changed, 30_000)).find((t) =>
    t.subject === "Ship the release notes"
  )!;
  assertEquals([waiting.status, waiting.waiting_on?.verification], ["waiting", true]);
  command(c, "task_verdict", {
    project: "alpha",
    id: waiting.id,
    approve: false,
    words: "The notes miss the cron section.",
  });
  const forged = await c.next((m) => {
    const f = chatOf(m);
    return f?.type === "user" && f.source === "forge";
  }, 30_000);
  assertMatch(JSON.stringify(chatOf(forged)!.message), /The notes miss the cron section/);
  await untilResult(c);
  assertEquals((await requestsWith(world, "The notes miss the cron section")).length, 1);
  const back = tasksOf(await watcher.next(changed, 30_000)).find((t) => t.id === waiting.id)!;
  assertEquals([back.status, back.attempt], ["in_progress", 1]);

  // task_rank: the person moves the newest pending row to the top of its queue.
  await promptTurn(c, lead, "[[script:second]] and the printer");
  await watcher.next(changed, 30_000);
  await promptTurn(c, lead, "[[script:second]] and another printer");
  const two = tasksOf(await watcher.next(changed, 30_000)).filter((t) => t.status === "pending");
  command(c, "task_rank", { project: "alpha", id: two[1].id, to: "top" });
  const ranked = tasksOf(await watcher.next(changed, 30_000)).filter((t) => t.status === "pending");
  assertEquals(ranked.map((t) => t.id), [two[1].id, two[0].id]);

  // Bad input: the schema's words from the bridge, the board's own words from the tool.
  const bad = toolResultsOf(await promptTurn(c, lead, "[[script:badtask]] try badly"));
  assertEquals(bad.map((r) => r.isError), [true, true, true]);
  assertMatch(bad[0].text, /subject: must not be empty/);
  assertMatch(bad[1].text, /status/);
  assertMatch(bad[2].text, /no task `t-00000000` on alpha's board/);
  const badCron = toolResultsOf(await promptTurn(c, lead, "[[script:badcron]] schedule badly"));
  assertEquals(badCron.map((r) => r.isError), [true, true, true]);
  assertMatch(badCron[0].text, /^schedule: `61 \* \* \* \*` is not a 5-field cron expression/);
  assertMatch(badCron[1].text, /^schedule, run_once_at: give exactly one/);
  assertMatch(badCron[2].text, /^run_once_at: `next tuesday` is not an RFC 3339 instant/);

  // A restart keeps the board exactly.
  const before = await boardRows(c);
  await forge.stop();
  forge = await world.startForge();
  const after = await boardRows(await forge.ready());
  assertEquals(after.rows.map((r) => r.task), before.rows.map((r) => r.task));
});

Deno.test("cron: a per-minute schedule fires into a sleeping lead and the page names it; a server stopped across two fires fires once; a one-shot fires once and is gone", async () => {
  // The cron tick runs on a clock this test moves (the real CLI and the fake API keep real
  // time): a schedule falls due when the test says so, so nothing waits for a minute to turn.
  // forge runs in this process for that; everything else is as a person runs it.
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const clock = new ManualClock(Date.now());
  let forge = await world.startInProcess({ cronClock: clock });
  const lead = world.lead("alpha");
  let c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const made = toolResultsOf(await promptTurn(c, lead, "[[script:cron]] check every minute"));
  const once = toolResultsOf(await promptTurn(c, lead, "[[script:once]] and once"));
  const cron = JSON.parse(made[0].text);
  const oneShot = JSON.parse(once[0].text);
  assertEquals([cron.schedule, cron.description], [{ recurring: "* * * * *" }, "minute check"]);
  assertEquals(Object.keys(oneShot.schedule), ["once_at"]);

  // The lead goes to sleep; each fire wakes it. They are fired one at a time, earliest first, and
  // the next only once the model has heard the first (the CLI may fold two prompts that arrive
  // while it starts into one turn, leaving one of them unnamed).
  command(c, "close_session", { session_key: lead });
  await c.next((m) => updateOf(m, "releasing") !== null, 30_000);
  const fires: Msg[] = [];
  const due = [
    { entry: cron, heard: "Minute check: look at the board." },
    { entry: oneShot, heard: "One-shot: say the word." },
  ].sort((a, b) => Date.parse(a.entry.next_fire) - Date.parse(b.entry.next_fire));
  for (const { entry, heard } of due) {
    clock.advanceTo(Date.parse(entry.next_fire));
    const m = await c.next(
      (f) => updateOf(f, "cron_prompt_appended")?.cron_id === entry.id,
      90_000,
    );
    fires.push(updateOf(m, "cron_prompt_appended")!);
    // A fire is a delivery: the woken lead's CLI asks the model in its own time after it.
    await untilRequested(world, heard);
  }
  const minute = fires.find((f) => f.cron_id === cron.id)!;
  assertEquals([minute.description, minute.name, minute.text], [
    "minute check",
    "minute check",
    "[[script:fired]] Minute check: look at the board.",
  ]);
  // forge's `name` beside v29's description: the schedule's name as cron_names gives it.
  assertEquals(fires.find((f) => f.cron_id === oneShot.id)!.name, "once");

  // The page carrying the fired turn names its schedule, by the prompt's own id.
  c.send({ kind: "more", conversation: lead, before: null, turns: 20 });
  const page = await c.next((m) => m.kind === "page");
  const names = page.cron_names as Record<string, string>;
  assertEquals(names[String(minute.uuid)], "minute check");

  // The one-shot is gone after its fire.
  const board = await boardRows(c);
  assertEquals(board.crons.map((x) => x.id), [cron.id]);
  const nextFire = Date.parse((board.crons[0] as { next_fire: string }).next_fire);
  assert(nextFire > clock.now(), "the minute schedule's next fire is ahead of its clock");

  // Stopped across two due fires: the clock moves two minutes past the next fire while no server
  // runs, and the start fires it once, saying so.
  await forge.stop();
  clock.advanceTo(nextFire + 2 * 60_000 + 1_000);
  forge = await world.startInProcess({ cronClock: clock });
  // The catch-up fires at boot, before any client could subscribe: wait for the fake API to hear it.
  await untilRequested(world, "[missed cron");
  c = await forge.ready();
  const snap = await subscribeSeat(c, lead, true) as { conversation: Msg };
  const turns = snap.conversation.turns as { messages: Msg[] }[];
  const fired = turns.flatMap((t) => t.messages).find((m) =>
    m.type === "user" && JSON.stringify(m.message).includes("[missed cron")
  )!;
  assertMatch(
    JSON.stringify(fired.message),
    /\[missed cron c-[0-9a-f]{8}\] .* 3 occurrences fell due, and it fires once now\./,
  );
  assertEquals(fired.source, "cron");
  // spec: session > conversation carries cron_names for the fired prompt, after a restart too.
  assertEquals(
    (snap.conversation.cron_names as Record<string, string>)[String(fired.uuid)],
    "minute check",
  );
  // The fires from before the restart are read back from the transcript (the resumed seat's
  // seeded window): their rows carry the prompt's own id, and the persisted map still names them.
  const names2 = snap.conversation.cron_names as Record<string, string>;
  assertEquals(names2[String(minute.uuid)], "minute check");
  assertEquals(names2[String(fires.find((f) => f.cron_id !== cron.id)!.uuid)], "once");
  assertEquals((await requestsWith(world, "[missed cron")).length, 1);
  assertEquals((await requestsWith(world, "One-shot: say the word.")).length, 1, "fired once");
  const advanced = (await boardRows(c)).crons[0] as { next_fire: string };
  assert(Date.parse(advanced.next_fire) > clock.now(), "the next fire is ahead, not behind");
});

Deno.test("cron: a fire a lead mid-turn holds in its CLI's queue is handed over again after a restart", async () => {
  // The lead is mid-turn on a settings__set ask nobody answers, so the fire waits in its CLI's
  // queue, in memory; the CLI dies with it there and forge restarts. The cron tick runs on this
  // test's clock.
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const clock = new ManualClock(Date.now());
  let forge = await world.startInProcess({ cronClock: clock });
  const lead = world.lead("alpha");
  let c = await forge.ready();
  await subscribeSeat(c, lead, true);
  const cron = JSON.parse(
    toolResultsOf(await promptTurn(c, lead, "[[script:cron]] check every minute"))[0].text,
  );
  command(c, "prompt", { key: lead, text: "[[script:hold]] hold on", attachments: [] });
  await c.next((m) => updateOf(m, "settings_write_pending") !== null, 60_000);
  clock.advanceTo(Date.parse(cron.next_fire));
  const fired = updateOf(
    await c.next((m) => updateOf(m, "cron_prompt_appended")?.cron_id === cron.id, 60_000),
    "cron_prompt_appended",
  )!;
  assertEquals((await requestsWith(world, "Minute check: look at the board.")).length, 0);
  await crashLead(world, c);

  await forge.stop();
  forge = await world.startInProcess({ cronClock: clock });
  // The boot hands the waiting fire over again, under its own uuid: the woken lead asks with it.
  await untilRequested(world, "Minute check: look at the board.");
  c = await forge.ready();
  const snap = await subscribeSeat(c, lead, true) as { conversation: Msg };
  const rows = (snap.conversation.turns as { messages: Msg[] }[]).flatMap((t) => t.messages);
  const again = rows.filter((m) => m.type === "user" && m.uuid === fired.uuid);
  assertEquals(again.length, 1, "the fire's own prompt, once");
  const names = snap.conversation.cron_names as Record<string, string>;
  assertEquals(names[String(fired.uuid)], "minute check");
  assertEquals((await requestsWith(world, "Minute check: look at the board.")).length, 1);
});

Deno.test("cron: a fire waiting in a lead's CLI that dies while forge runs goes to its next CLI, once", async () => {
  // No restart: the person resumes the lead's session after the crash (spec: resume_session),
  // and the new CLI is handed the fire the dead one held in its queue.
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const clock = new ManualClock(Date.now());
  const forge = await world.startInProcess({ cronClock: clock });
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const snap = await subscribeSeat(c, lead, true) as { header: { session_id: string } };
  const cron = JSON.parse(
    toolResultsOf(await promptTurn(c, lead, "[[script:cron]] check every minute"))[0].text,
  );
  command(c, "prompt", { key: lead, text: "[[script:hold]] hold on", attachments: [] });
  await c.next((m) => updateOf(m, "settings_write_pending") !== null, 60_000);
  clock.advanceTo(Date.parse(cron.next_fire));
  await untilAppended(c, [cron.id]);
  await crashLead(world, c);
  assertEquals((await requestsWith(world, "Minute check: look at the board.")).length, 0);

  command(c, "resume_session", {
    key: lead,
    session_id: snap.header.session_id,
    cwd: world.projectDir("alpha"),
    launch_settings: {},
  });
  await untilRequested(world, "Minute check: look at the board.");
  await untilResult(c);
  assertEquals((await requestsWith(world, "Minute check: look at the board.")).length, 1);
});
