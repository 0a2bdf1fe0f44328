import { assertEquals } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { seatSnapshot } from "../../../../tests/web_seat_snapshot.ts";
import { type ClientMessage, readUpdate as readWire, type Wire } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "./client.ts";
import { SeatAttach } from "./seat_attach.ts";
import { initialState } from "./store.ts";
import { readUpdate } from "./updates.ts";

// spec: subscribe > review - the flag follows the page holding the seat; "a read a page asks for
// on a notice - a review write, another client's activity - is an ordinary record read".

const slot = { org: "Acme", project: "alpha", label: "lead" };

function world() {
  const sent: ClientMessage[] = [];
  const state = initialState();
  const client = {
    state,
    send: (m: ClientMessage) => (sent.push(m), true),
    store: { changed() {} },
    clock: new ManualClock(),
    stats: { rangeAsks: 0 },
    voice: { shown() {}, left() {} },
    terminal: { detach() {} },
    dictation: { left() {} },
    offSchema: (why: string) => {
      throw new Error(why);
    },
  } as unknown as ForgeClient;
  const attach = new SeatAttach(client);
  attach.open(slot, true);
  attach.snapshot(slot, seatSnapshot(1) as unknown as Wire);
  const reads = () =>
    sent.flatMap((m) => m.kind === "subscribe" && typeof m.what === "object" ? [m.review] : []);
  const hear = (raw: Wire) => {
    assertEquals(readWire(raw).ok, true, JSON.stringify(raw));
    const read = readUpdate(raw);
    if (read.known === "invalid") throw new Error(read.why);
    attach.update(read, null);
    attach.snapshot(slot, seatSnapshot(1) as unknown as Wire);
  };
  return { attach, sent, reads, hear, state };
}

const reviews = {
  threads: { outcome: "read", value: [] },
  reviews: { outcome: "read", value: [] },
};

Deno.test("seat attach: the review page's own read carries the flag; a review notice's does not", () => {
  const w = world();
  assertEquals(w.reads(), [true]);
  w.hear({ review_threads_changed: { key: slot, branch: "main", reviews } });
  w.hear({
    review_activity_notice: { key: slot, branch: "main", waiting: 1, message: "replied" },
  });
  w.attach.rereadRecord();
  assertEquals(w.reads(), [true, false, false, false]);
});

Deno.test("seat attach: away from the review tab a review notice reads nothing", () => {
  const w = world();
  w.attach.open(slot, false);
  const before = w.reads().length;
  w.hear({ review_threads_changed: { key: slot, branch: "main", reviews } });
  assertEquals(w.reads().length, before);
});

Deno.test("seat attach: the tree moving drops the working tree's file reads, keeps a commit's", () => {
  const w = world();
  const content = { state: "read" as const, lines: ["line 1"], truncated: false };
  const file = (path: string, sha: string | null, session = slot) =>
    w.attach.reviewRead({ kind: "file_content", session, path, sha, content });
  file("a.txt", null);
  file("a.txt", "abc123");
  // A read that lands after the page left for another seat is not this seat's.
  file("b.txt", null, { ...slot, label: "worker" });
  assertEquals([...w.state.files.keys()], ["a.txt@", "a.txt@abc123"]);
  w.hear({
    work_changed: {
      key: slot,
      work: { branch: "main", changed: 2, gate: "in_repo" },
      git: null,
      pr: null,
      closes: [],
    },
  });
  assertEquals([...w.state.files.keys()], ["a.txt@abc123"]);
  w.attach.close();
  assertEquals(w.state.files.size, 0);
});
