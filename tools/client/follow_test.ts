// A seat followed over a link that loses one of its frames: the follow sees the gap in `seq`,
// asks for it with `seat_range`, and yields the frame forge repaired in its place, in order,
// before anything after it; after a new occupant, the refused range reads the seat again. A real forge (`deno task start`) with a real claude CLI seat; the
// loss is a proxy's on the wire. spec: What a client receives > update {update, seq, span};
// What a client sends > seat_range; seat_frames.
import { assert, assertEquals } from "../../tests/assert.ts";
import { breakingProxy } from "../../tests/conformance_proxy.ts";
import { seatWorld, subscribeSeat } from "../../tests/seats_harness.ts";
import { readUpdate, type SessionUpdate } from "../../protocol/mod.ts";
import { ForgeClient } from "../client_lib.ts";
import type { FollowEvent } from "./follow.ts";

const uuidOf = (u: SessionUpdate) => u.name === "prompt_cancel_resolved" ? u.fields.uuid : null;

Deno.test("follow: a seat frame lost on the way is repaired with seat_range, in its place", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  // The seat's CLI answers before the follow starts: a cancel is answered, never queued.
  await subscribeSeat(await forge.ready(), lead);

  // The proxy loses the first prompt_cancel_resolved it carries, and one more once re-armed.
  let lost: Record<string, unknown> | null = null;
  let armed = true;
  await using lossy = await breakingProxy(forge.url, (f) => {
    const lose = armed && f.kind === "update" &&
      JSON.stringify(f.update).includes("prompt_cancel_resolved");
    if (lose) [lost, armed] = [f, false];
    return lose;
  });
  const c = await ForgeClient.connect(lossy.url, { validate: true });
  const seat = c.follow({ session: lead });
  const first = await seat.take(30_000);
  assert(first.kind === "snapshot");
  const joined = first.data.header.seq;

  // cancel_queued_prompt for uuids nobody queued: the CLI answers each with a keyed update
  // (prompt_cancel_resolved) and nothing else moves. Each command answers null once taken.
  const uuids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  for (const uuid of uuids) {
    assertEquals(await c.command("cancel_queued_prompt", { key: lead, uuid }), null);
  }
  const heard: Extract<FollowEvent<{ session: typeof lead }>, { kind: "update" }>[] = [];
  while (heard.filter((e) => uuidOf(e.update) !== null).length < 3) {
    const e = await seat.take(30_000);
    assert(e.kind === "update", `a second snapshot: ${JSON.stringify(e).slice(0, 200)}`);
    heard.push(e);
  }

  const dropped = lost as Record<string, unknown> | null;
  assert(dropped, "the proxy lost a frame");
  const at = dropped.seq as number;
  // One gap, exactly the lost frame's number, and the range forge answered filled it.
  assertEquals(seat.gaps, [{ from: at, to: at }]);
  const repaired = heard.filter((e) => e.repaired);
  assertEquals(repaired.map((e) => e.seq), [at]);
  const was = readUpdate(dropped.update);
  assert(was.ok);
  assertEquals(repaired[0].update, was.update);
  // In order: the three answers as sent, and every number from the snapshot on, none twice.
  assertEquals(heard.map((e) => uuidOf(e.update)).filter((u) => u !== null), uuids);
  let next = joined;
  for (const e of heard.filter((e) => e.seq !== null && e.span > 0)) {
    assertEquals(e.seq, next, `seq ${e.seq} where ${next} was next`);
    next += e.span;
  }

  // --- a new occupant: a range in the old epoch is refused, so the follow reads the seat again
  // (spec: seat_range, "an error naming seat_range means read the seat again").
  await c.command("new_session", {
    key: lead,
    cwd: world.projectDir("alpha"),
    launch_settings: {},
  });
  let replaced = await seat.take(60_000);
  while (replaced.kind !== "update" || replaced.update.name !== "session_replaced") {
    replaced = await seat.take(60_000);
  }
  armed = true;
  for (const uuid of [crypto.randomUUID(), crypto.randomUUID()]) {
    await c.command("cancel_queued_prompt", { key: lead, uuid });
  }
  let again = await seat.take(30_000);
  while (again.kind !== "snapshot") again = await seat.take(30_000);
  assertEquals([again.reread, seat.rereads, seat.gaps.length], [true, 1, 2]);
  assert(again.data.header.session_id !== first.data.header.session_id, "a new epoch");
  // The stream goes on from the fresh read, live.
  const after = crypto.randomUUID();
  await c.command("cancel_queued_prompt", { key: lead, uuid: after });
  let live = await seat.take(30_000);
  while (live.kind !== "update" || uuidOf(live.update) !== after) live = await seat.take(30_000);
  assertEquals([live.repaired, live.seq! >= again.data.header.seq], [false, true]);
  seat.stop();
  await c.close();
  assertEquals(c.schemaErrors, []);
});
