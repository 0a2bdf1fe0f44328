// forge as main.ts runs it, with one test subsystem more whose start never finishes. The start
// limit runs on a clock the stuck start itself moves past any limit forge.toml can set, so the
// limit passes at once and no test waits it out. tests/boot_failure_test.ts runs this file as its
// own process.
import { runForge } from "../main.ts";
import { ManualClock } from "./manual_clock.ts";
import { testManifest } from "./registry_fakes.ts";

/** A day: past `server.subsystem_start_secs`' ceiling (3600 s). */
const PAST_ANY_LIMIT_MS = 24 * 3600 * 1000;

const clock = new ManualClock();
const neverStarts = testManifest("never_starts", { note: "its start waits forever" }, () => {
  // Its limit was armed before its start ran; the subsystems before it cleared theirs.
  clock.advanceBy(PAST_ANY_LIMIT_MS);
  return new Promise<never>(() => {});
});

await runForge(Deno.args, { extra: [neverStarts], startClock: clock });
