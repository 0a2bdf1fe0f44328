import { assertEquals } from "../../tests/assert.ts";
import type { CronEntry } from "../../protocol/mod.ts";
import { afterFire } from "./schedule.ts";

const NOW = Date.parse("2026-03-02T10:00:30Z");
const entry = (schedule: CronEntry["schedule"]): CronEntry => ({
  id: "c-1",
  org: "Acme",
  project: "alpha",
  schedule,
  prompt: "check",
  description: null,
  created_by: "test",
  created_at: "2026-03-01T00:00:00.000Z",
  next_fire: "2026-03-02T10:00:00.000Z",
  last_fired: null,
  last_error: "an earlier failure",
});

Deno.test("a delivered fire advances from now and clears the last error; a one-shot goes", () => {
  const [after] = afterFire(entry({ recurring: "*/5 * * * *" }), NOW, null, 5_000);
  assertEquals(after.next_fire, "2026-03-02T10:05:00.000Z");
  assertEquals(after.last_fired, "2026-03-02T10:00:30.000Z");
  assertEquals(after.last_error, null);
  assertEquals(afterFire(entry({ once_at: "2026-03-02T10:00:00Z" }), NOW, null, 5_000), []);
});

Deno.test("an undelivered fire stays, says why, and is tried again after the wait", () => {
  const once = entry({ once_at: "2026-03-02T10:00:00Z" });
  const [after] = afterFire(once, NOW, "the lead could not be woken", 20_000);
  assertEquals(after.next_fire, "2026-03-02T10:00:50.000Z");
  assertEquals(after.last_error, "the lead could not be woken");
  assertEquals(after.last_fired, null);
});
