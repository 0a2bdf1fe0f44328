import { assertEquals } from "../tests/assert.ts";
import { guardProcess } from "./crash_guard.ts";
import { memoryLogger } from "./log.ts";

Deno.test("crash guard: an unheard rejection and an uncaught throw are logged, not fatal", () => {
  const target = new EventTarget();
  const log = memoryLogger();
  const stop = guardProcess(target, log);
  const rejection = new PromiseRejectionEvent("unhandledrejection", {
    promise: Promise.resolve(),
    reason: new Error("a connector's floating promise"),
    cancelable: true,
  });
  const thrown = new ErrorEvent("error", { error: new Error("a timer's throw"), cancelable: true });
  // dispatchEvent answers false when a listener prevented the default: the process lives on.
  assertEquals([target.dispatchEvent(rejection), target.dispatchEvent(thrown)], [false, false]);
  assertEquals(
    log.records.map((r) => [r.event, (r as { error?: { message: string } }).error?.message]),
    [
      ["unhandled_rejection", "a connector's floating promise"],
      ["uncaught_error", "a timer's throw"],
    ],
  );
  stop();
  const later = new ErrorEvent("error", { error: new Error("after"), cancelable: true });
  assertEquals(target.dispatchEvent(later), true);
});
