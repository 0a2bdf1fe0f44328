// A seat's follow over a reconnect, against a line the test plays forge's side of: the same server
// run and occupant join the numbers with one seat_range and no snapshot; another run (spec: home >
// boot_id: a seat's numbers are minted per run) or another occupant (seat_range's epoch) reads the
// seat again, whatever the numbers say. spec: The socket > Reaching it; seat_range; seat_frames.
import { assert, assertEquals } from "../../tests/assert.ts";
import { type ClientMessage, update } from "../../protocol/mod.ts";
import { seatSnapshot } from "../../tests/web_seat_snapshot.ts";
import { Following, type Line, type Listener } from "./follow.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const u = (id: string) => update("prompt_cancel_resolved", { key, uuid: id, cancelled: true });

class FakeLine implements Line {
  sent: ClientMessage[] = [];
  listener: Listener | null = null;
  isOpen = true;
  isClosed = false;
  bootId: string | null = "run-1";
  send(m: ClientMessage): void {
    this.sent.push(m);
  }
  listen(l: Listener): () => void {
    this.listener = l;
    return () => this.listener = null;
  }
  hear(data: Record<string, unknown>): void {
    this.listener!.frame({ type: "json", data, compressed: false }, false);
  }
  snapshot(seq: number, session = "s1"): void {
    this.hear({
      kind: "snapshot",
      subject: { session: key },
      data: seatSnapshot(seq, [], session),
    });
  }
  live(seq: number, id: string): void {
    this.hear({ kind: "update", update: { prompt_cancel_resolved: u(id).fields }, seq, span: 1 });
  }
  /** The socket drops, a new one opens on `run` (the client re-sends the subscribe itself). */
  reconnect(run: string): void {
    this.listener!.dropped!();
    this.bootId = run;
    this.sent = [];
  }
}

/** A seat followed on run-1 from seq 10, having read 10 and 11. */
async function following() {
  const line = new FakeLine();
  const seat = new Following(line, { session: key });
  line.snapshot(10);
  assertEquals((await seat.take(0)).kind, "snapshot");
  line.live(10, "a");
  line.live(11, "b");
  await seat.take(0);
  await seat.take(0);
  return { line, seat };
}

Deno.test("resume: the same run and occupant ask for what was missed, and no snapshot", async () => {
  const { line, seat } = await following();
  line.reconnect("run-1");
  line.snapshot(14);
  line.live(14, "e");
  assertEquals(line.sent.at(-1), { kind: "seat_range", slot: key, epoch: "s1", from: 12, to: 13 });
  line.hear({
    kind: "seat_frames",
    slot: key,
    epoch: "s1",
    frames: [12, 13].map((seq) => ({
      seq,
      update: { prompt_cancel_resolved: u(`${seq}`).fields },
    })),
  });
  const got = [await seat.take(0), await seat.take(0), await seat.take(0)];
  assertEquals(got.map((e) => e.kind === "update" ? [e.seq, e.repaired] : e.kind), [
    [12, true],
    [13, true],
    [14, false],
  ]);
  assertEquals([seat.resumes, seat.gaps], [1, [{ from: 12, to: 13 }]]);
});

Deno.test("resume: nothing missed asks for nothing", async () => {
  const { line, seat } = await following();
  line.reconnect("run-1");
  line.snapshot(12);
  line.live(12, "c");
  const e = await seat.take(0);
  assert(e.kind === "update");
  assertEquals([e.seq, line.sent.length, seat.gaps], [12, 0, []]);
});

for (
  const [what, run, session] of [
    ["another server run", "run-2", "s1"],
    ["another occupant", "run-1", "s2"],
  ] as const
) {
  Deno.test(`resume: ${what} reads the seat again, though the numbers went on`, async () => {
    const { line, seat } = await following();
    line.reconnect(run);
    line.snapshot(40, session);
    const e = await seat.take(0);
    assert(e.kind === "snapshot");
    assertEquals([e.reread, e.reconnected, e.data.header.seq], [true, true, 40]);
    assertEquals([seat.resumes, line.sent.length], [0, 0]);
    line.live(40, "x");
    const next = await seat.take(0);
    assert(next.kind === "update");
    assertEquals(next.seq, 40);
  });
}

Deno.test("resume: a count that went backwards reads the seat again", async () => {
  const { line, seat } = await following();
  line.reconnect("run-1");
  line.snapshot(3);
  const e = await seat.take(0);
  assert(e.kind === "snapshot" && e.reconnected);
});
