// A subject's snapshot schema is typed for that subject, so a reader of `snapshotSchema(s)` gets
// its snapshot's type, and every subject has one.
import type { z } from "zod";
import { assertEquals } from "../tests/assert.ts";
import type { HomeSnapshot } from "./home.ts";
import type { SessionSnapshot } from "./session.ts";
import { readSnapshotFrame, SNAPSHOT_SCHEMAS, snapshotSchema } from "./snapshots.ts";
import { NAMED_SUBJECTS } from "./subject.ts";

const key = { org: "Acme", project: "proj", label: "lead" };

Deno.test("snapshotSchema: typed for its subject; every subject has one", () => {
  const home: z.ZodType<HomeSnapshot> = snapshotSchema("home");
  const seat: z.ZodType<SessionSnapshot> = snapshotSchema({ session: key });
  // @ts-expect-error: a home snapshot is no session snapshot
  const wrong: z.ZodType<SessionSnapshot> = snapshotSchema("home");
  assertEquals([home === SNAPSHOT_SCHEMAS.home, seat === SNAPSHOT_SCHEMAS.session], [true, true]);
  assertEquals(wrong === seat, false);
  assertEquals(Object.keys(SNAPSHOT_SCHEMAS).sort(), [...NAMED_SUBJECTS, "session"].sort());
  const board = snapshotSchema("board").safeParse({ projects: [] });
  assertEquals(board.success && board.data.projects, []);
});

Deno.test("readSnapshotFrame: a frame read is typed by its subject; off its schema, why", () => {
  const read = readSnapshotFrame({ subject: "board", data: { projects: [] } });
  if (!read.ok) throw new Error(read.why);
  const f = read.frame;
  // Narrowing on the subject gives that subject's data; a seat's is the object subject.
  if (f.subject === "board") assertEquals(f.data.projects, []);
  if (typeof f.subject === "object") {
    const seat: SessionSnapshot = f.data;
    assertEquals(seat, null);
  }
  if (f.subject === "board") {
    // @ts-expect-error a board snapshot has no agents: that is home's
    assertEquals(f.data.agents, undefined);
  }
  assertEquals(readSnapshotFrame({ subject: "board", data: { projects: 1 } }), {
    ok: false,
    why: 'snapshot of "board": projects: expected a list, got 1',
  });
});
