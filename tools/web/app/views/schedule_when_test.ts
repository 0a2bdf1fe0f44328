import { assert, assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { readWhen } from "./schedule_when.ts";

Deno.test("an undated text is the expression, sent for the server to check", () => {
  assertEquals(readWhen(" */30 * * * * "), {
    ok: true,
    schedule: "*/30 * * * *",
    run_once_at: null,
  });
});

Deno.test("a local date and time becomes its instant", () => {
  const got = readWhen("2027-01-01T09:00");
  assert(got.ok);
  assertEquals(got.schedule, null);
  assertEquals(got.run_once_at, new Date(2027, 0, 1, 9, 0).toISOString());
});

Deno.test("a day or hour the calendar does not have is refused in words, not rolled over", () => {
  for (const bad of ["2027-02-30T09:00", "2027-13-01T09:00", "2027-01-01T25:00"]) {
    const got = readWhen(bad);
    assert(!got.ok, bad);
    assertMatch(got.why, /is not a date and time on the calendar/);
  }
});

Deno.test("a dated text the page does not read goes to the server as typed", () => {
  assertEquals(readWhen("2027-01-01T09:00:00+02:00"), {
    ok: true,
    schedule: null,
    run_once_at: "2027-01-01T09:00:00+02:00",
  });
  assertEquals(readWhen("2027-01-01 tomorrowish").ok, true);
});
