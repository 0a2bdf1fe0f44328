import { assertEquals } from "../../../tests/assert.ts";
import { memoryLogger } from "../../log.ts";
import { StateKeeper } from "../../state/keeper.ts";
import { SessionBook, type SessionRecord } from "./session_book.ts";

function record(label: string): SessionRecord {
  return {
    slot: { org: "acme", project: "site", label },
    session_id: `session-${label}`,
    cwd: "/srv/site",
    transcript: `/srv/config/projects/site/session-${label}.jsonl`,
  };
}

async function book() {
  const dir = await Deno.makeTempDir();
  const log = memoryLogger();
  const open = () => new SessionBook(new StateKeeper(log), dir, log);
  const onDisk = async () =>
    Object.keys(JSON.parse(await Deno.readTextFile(`${dir}/sessions.json`))).sort();
  return { dir, log, open, onDisk };
}

Deno.test("session book: a change after a hand edit lands on top of the edit", async () => {
  const w = await book();
  const seats = w.open();
  await seats.load();
  seats.set(record("lead"));
  seats.set(record("w1"));
  await seats.flushed();

  // Someone adds a seat's record by hand while forge runs; the file still parses.
  const path = `${w.dir}/sessions.json`;
  const edited = JSON.parse(await Deno.readTextFile(path));
  edited["acme/site/hand"] = record("hand");
  await Deno.writeTextFile(path, JSON.stringify(edited, null, 1) + "\n");

  seats.delete({ org: "acme", project: "site", label: "w1" });
  await seats.flushed();
  assertEquals(await w.onDisk(), ["acme/site/hand", "acme/site/lead"]);

  seats.set(record("w2"));
  await seats.flushed();
  assertEquals(await w.onDisk(), ["acme/site/hand", "acme/site/lead", "acme/site/w2"]);
  assertEquals(
    seats.get({ org: "acme", project: "site", label: "hand" })?.session_id,
    "session-hand",
  );
  assertEquals(w.log.records.filter((r) => r.event === "seat_session_book_unwritable"), []);

  // What the next run reads is what this one meant.
  const next = await w.open().load();
  assertEquals(next.map((r) => r.slot.label).sort(), ["hand", "lead", "w2"]);
});
