// The SDK's reconnect against a real forge (`deno task start`, a real claude CLI seat on the fake
// API): a link that fails mid-turn, and a forge that restarts on the same port. The redial's
// backoff runs on a clock the test moves by hand; the sockets, the seat and its frames are real.
// spec: The socket > Reaching it (what a reconnect must do is the client's own rule; re-send
// Showing); home > boot_id (a seat's numbers are minted per server run); seat_range; seat_frames;
// command > reply_to (a command is never silently sent twice).
import type { CliFrame, SessionUpdate, Slot } from "../protocol/mod.ts";
import { ConnectionClosed, type FollowEvent, type LinkEvent } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import { reconnecting } from "./client_support.ts";
import { breakingProxy } from "./conformance_proxy.ts";
import { halfOpenProxy } from "./half_open_proxy.ts";
import { ManualClock } from "./manual_clock.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";

type SeatEvent = FollowEvent<{ session: Slot }>;
type Update = Extract<SeatEvent, { kind: "update" }>;

/** A client on `url` that reconnects on a clock the test moves, following `seat` from its first
 * snapshot. */
async function following(url: string, seat: Slot) {
  const client = await reconnecting(url, new ManualClock(), {
    minMs: 500,
    maxMs: 4_000,
    quietMs: 15_000,
  });
  const followed = client.c.follow({ session: seat });
  const first = await followed.take(30_000);
  assert(first.kind === "snapshot");
  return { ...client, seat: followed, first };
}

/** The link's word that it is back, the followed seat asked for again and answered. */
const back = (attempt: number, seat: Slot): LinkEvent => ({
  kind: "reconnected",
  attempt,
  restored: [{ kind: "subscribe", what: { session: seat }, answering: false }],
  refused: [],
  reattached: [],
  unattached: [],
  regained: [],
  lost: [],
});

const chat = (u: SessionUpdate): CliFrame | null =>
  u.name === "chat_appended" ? u.fields.msg : null;

/** The seat's events up to and including its turn's ending (`turn_complete`). */
async function untilTurnEnds(seat: { take(ms: number): Promise<SeatEvent> }): Promise<SeatEvent[]> {
  const got: SeatEvent[] = [];
  for (;;) {
    const e = await seat.take(60_000);
    got.push(e);
    if (e.kind === "update" && e.update.name === "turn_complete") return got;
  }
}

/** Every numbered frame from `from` on, each number once and in order. */
function assertContiguous(updates: Update[], from: number): void {
  let next = from;
  for (const e of updates.filter((e) => e.seq !== null && e.span > 0)) {
    assertEquals(e.seq, next, `seq ${e.seq} where ${next} was next`);
    next += e.span;
  }
}

Deno.test("reconnect: a link cut mid-turn resumes the seat from its number, no gap, none twice", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  await subscribeSeat(await forge.ready(), lead);

  // The link dies on the turn's third streamed frame, before passing it on; armed once.
  let streamed = 0;
  let armed = false;
  let cutAt: number | null = null;
  let cutUp: string | null = null;
  await using flaky = await breakingProxy(
    forge.url,
    (f) => {
      if (!armed || f.kind !== "update" || !JSON.stringify(f.update).includes("chat_appended")) {
        return false;
      }
      if (++streamed < 3) return false;
      armed = false;
      cutAt = f.seq as number;
      return "cut";
    },
    (f) => cutUp !== null && JSON.stringify(f).includes(cutUp),
  );
  const { c, clock, heard, link, seat, first } = await following(flaky.url, lead);
  c.send({ kind: "showing", seat: lead });

  armed = true;
  await c.command("prompt", { key: lead, text: "[[script:hello]] say hello", attachments: [] });
  const dropped = await link(1);
  assert(dropped.kind === "reconnecting" && dropped.why instanceof ConnectionClosed);
  assertEquals([dropped.attempt, dropped.retryInMs, c.isOpen], [1, 500, false]);
  // While down nothing is sent: a command fails at once rather than waiting for the link.
  const refused = await c.command("vault_lock", null).catch((e) => e);
  assert(refused instanceof ConnectionClosed, String(refused));
  clock.advanceBy(500);
  assertEquals(await link(2), back(1, lead));

  const events = await untilTurnEnds(seat);
  assert(cutAt !== null, "the link was cut mid-turn");
  assert(events.every((e) => e.kind === "update"), "no second snapshot: the stream was joined");
  const updates = events as Update[];
  assertContiguous(updates, first.data.header.seq);
  assertEquals([seat.resumes, seat.gaps.length], [1, 1]);
  assertEquals(seat.gaps[0].from, cutAt);
  assert(updates.some((e) => e.repaired && e.seq === cutAt), "the cut frame came repaired");
  // The turn's text arrives whole: every streamed piece once.
  const text = updates.flatMap((e) => {
    const m = chat(e.update);
    return m?.type === "stream_event" ? [JSON.stringify(m)] : [];
  });
  assertEquals(new Set(text).size, text.length, "no streamed piece twice");
  // spec: Reaching it: the seat on screen is said again on the new connection.
  const showings = flaky.sent.filter((t) => t.includes('"kind":"showing"'));
  assertEquals(showings.length, 2);

  // --- a command out when the link drops fails, and is never sent again -------------------------
  const uuid = crypto.randomUUID();
  cutUp = uuid;
  const lost = await c.command("cancel_queued_prompt", { key: lead, uuid }).catch((e) => e);
  assert(lost instanceof ConnectionClosed, String(lost));
  assertEquals((await link(3)).kind, "reconnecting");
  cutUp = null;
  clock.advanceBy(500);
  assertEquals((await link(4)).kind, "reconnected");
  // The seat goes on: a command after the redial is answered, and the lost one never reached forge.
  const after = crypto.randomUUID();
  await c.command("cancel_queued_prompt", { key: lead, uuid: after });
  let e = await seat.take(30_000);
  while (e.kind !== "update" || !JSON.stringify(e.update).includes(after)) {
    e = await seat.take(30_000);
  }
  assertEquals(flaky.sent.filter((t) => t.includes(uuid)), []);
  assertEquals(heard.length, 4);
  await c.close();
  assertEquals(c.schemaErrors, []);
});

Deno.test("reconnect: forge restarts on its port; the seat is read again, nothing lost or twice", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  await subscribeSeat(await forge.ready(), lead);
  const { c, clock, link, seat, first } = await following(forge.url, lead);
  const run = c.bootId;
  assert(run !== null, "the client read the server run");
  await c.command("prompt", { key: lead, text: "[[script:hello]] before", attachments: [] });
  const before = (await untilTurnEnds(seat)) as Update[];

  assertEquals((await forge.stop()).code, 0);
  const down = await link(1);
  assertEquals([down.kind, down.attempt], ["reconnecting", 1]);
  // Nothing listens yet: the dial fails, and the next wait is twice the first.
  clock.advanceBy(500);
  const failed = await link(2);
  assert(failed.kind === "reconnecting");
  assertEquals([failed.attempt, failed.retryInMs], [2, 1_000]);
  await world.startForge({}, forge.port);
  clock.advanceBy(1_000);
  assertEquals(await link(3), back(2, lead));

  // Another run: its numbers start again, so the seat is read again rather than joined. What the
  // old run sent after its turn ended (before it stopped) comes first, in its own order.
  let again = await seat.take(60_000);
  while (again.kind === "update") {
    before.push(again);
    again = await seat.take(60_000);
  }
  assertContiguous(before, first.data.header.seq);
  assertEquals([again.reread, again.reconnected], [true, true]);
  assert(c.bootId !== null && c.bootId !== run, "a new server run");
  assertEquals(again.data.header.session_id, first.data.header.session_id, "alpha resumed");
  // What streamed before the restart is in the new read; what streams after follows it.
  const held = JSON.stringify(again.data.conversation);
  assert(held.includes("Hello from the scripted model"), "the earlier turn is in the read");
  await c.command("prompt", { key: lead, text: "[[script:hello]] after", attachments: [] });
  const after = (await untilTurnEnds(seat)) as Update[];
  assert(after.every((e) => e.kind === "update"));
  assertContiguous(after, again.data.header.seq);
  const uuids = after.flatMap((e) => {
    const m = chat(e.update) as { uuid?: string } | null;
    return m?.uuid ? [m.uuid] : [];
  });
  assert(uuids.length > 0 && uuids.every((u) => !held.includes(u)), "nothing read twice");
  await c.close();
  assertEquals(c.schemaErrors, []);
});

Deno.test("reconnect: a half-open link is given up at the probe's deadline, and the seat resumes", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  await subscribeSeat(await forge.ready(), lead);
  const proxy = halfOpenProxy(forge.port);
  try {
    const { c, clock, link, seat, first } = await following(proxy.url, lead);
    // The network goes away: nothing arrives, and no close ever will.
    proxy.freeze();
    const lost = c.command("cancel_queued_prompt", { key: lead, uuid: crypto.randomUUID() });
    // spec: ping: after 15 s of quiet the client pings; a browser-like deadline of 65 s.
    clock.advanceBy(15_000);
    assertEquals(c.isOpen, true);
    clock.advanceBy(64_999);
    assertEquals(c.isOpen, true);
    clock.advanceBy(1);
    const down = await link(1);
    assert(down.kind === "reconnecting" && down.why instanceof ConnectionClosed);
    assertEquals([down.why.code, down.why.reason], [1006, "forge answered no probe"]);
    const failed = await lost.catch((e) => e);
    assert(failed instanceof ConnectionClosed, String(failed));
    clock.advanceBy(500);
    assertEquals(await link(2), back(1, lead));
    // The seat goes on from the number it held, with no second snapshot.
    const uuid = crypto.randomUUID();
    await c.command("cancel_queued_prompt", { key: lead, uuid });
    const got: SeatEvent[] = [];
    while (!got.some((e) => JSON.stringify(e).includes(uuid))) got.push(await seat.take(30_000));
    assert(got.every((e) => e.kind === "update"), "no second snapshot");
    assertContiguous(got as Update[], first.data.header.seq);
    assertEquals(seat.resumes, 1);
    await c.close();
    assertEquals(c.schemaErrors, []);
  } finally {
    proxy.close();
  }
});
