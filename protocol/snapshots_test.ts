// A subject's snapshot schema is typed for that subject, so a reader of `snapshotSchema(s)` gets
// its snapshot's type, and every subject has one.
import type { z } from "zod";
import { assertEquals } from "../tests/assert.ts";
import type { HomeSnapshot } from "./home.ts";
import type { SessionSnapshot } from "./session.ts";
import { SNAPSHOT_SCHEMAS, snapshotSchema } from "./snapshots.ts";
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
