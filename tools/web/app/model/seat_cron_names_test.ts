import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// The schedule each fired prompt came from, by the prompt's id: seeded from the snapshot's
// conversation, added to by an older page and by a live fire. spec: page > cron_names; session >
// conversation (cron_names); cron_prompt_appended (forge's `name`, else v29's description).

const slot = { org: "Acme", project: "alpha", label: "lead" };
const fired = (uuid: string, description: string | null, name?: string): Wire => ({
  cron_prompt_appended: {
    key: slot,
    text: "look",
    uuid,
    cron_id: "c-1",
    description,
    ...(name === undefined ? {} : { name }),
  },
});

Deno.test("seat cron names: the snapshot's, an older page's, and a live fire's", () => {
  const m = new SeatModel(slot);
  const d = snapshot(0);
  m.seed({ ...d, conversation: { ...d.conversation, cron_names: { p1: "nightly" } } });
  assertEquals(m.cronNames.get("p1"), "nightly");
  m.prepend([], null, { p0: "hourly" });
  assertEquals(m.cronNames.get("p0"), "hourly");
  m.accept(readUpdate(fired("p2", null, "once at 2026-12-06T01:00:00.000Z")), 0, 1);
  assertEquals(m.cronNames.get("p2"), "once at 2026-12-06T01:00:00.000Z");
});

Deno.test("seat cron names: a fire without forge's name is named by its description", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(0));
  m.accept(readUpdate(fired("p3", "weekly look")), 0, 1);
  assertEquals(m.cronNames.get("p3"), "weekly look");
  assertEquals([...m.cronNames.keys()], ["p3"]);
});
