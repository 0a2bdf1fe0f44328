// A subsystem's start that does not finish within `[server] subsystem_start_secs` is disabled as
// one that throws is (subsystem_failed, home's fatal_error) and the boot goes on; what such a
// start does finish later is stopped, and its later failure is logged. The limit runs on a clock
// the test moves: no test here waits for it.
import { assert, assertEquals } from "../tests/assert.ts";
import { ManualClock, settle } from "../tests/manual_clock.ts";
import { testManifest } from "../tests/registry_fakes.ts";
import { CORE_AREAS } from "./config/core_areas.ts";
import { loadConfigText } from "./config/load.ts";
import { memoryLogger } from "./log.ts";
import { Registry } from "./registry.ts";
import type { Host } from "./subsystem.ts";

/** The built-in config (no forge.toml), a log, and home's fatal_error as the registry set it. */
function world() {
  const { config } = loadConfigText("", "/tmp/forge.toml", CORE_AREAS);
  const log = memoryLogger();
  const fatal: string[] = [];
  const host = {
    log,
    config: () => config,
    workspace: { setFatal: (_kind: string, message: string) => fatal.push(message) },
  } as unknown as Host;
  return { host, log, fatal, limitMs: config.server.subsystem_start_secs * 1000 };
}

const lateEvents = (log: ReturnType<typeof memoryLogger>) =>
  log.records.filter((r) => r.event === "subsystem_start_late").map((r) =>
    (r as unknown as { outcome: string }).outcome
  );

Deno.test("a start that never finishes is turned off at the limit and the boot goes on", async () => {
  const { host, log, fatal, limitMs } = world();
  const clock = new ManualClock();
  const entered = Promise.withResolvers<void>();
  const stuck = testManifest("stuck", { note: "its start waits forever" }, () => {
    entered.resolve();
    return new Promise<never>(() => {});
  });
  const registry = new Registry([stuck, testManifest("after_it")], clock);
  const booted = registry.boot(host);
  await entered.promise;
  clock.advanceBy(limitMs - 1);
  await settle();
  assertEquals(registry.states(), [], "still waiting inside its limit");
  clock.advanceBy(1);
  await booted;
  const sentence = "the stuck subsystem did not finish starting within 60 s " +
    "(server.subsystem_start_secs); it stays off until forge restarts";
  assertEquals(registry.states(), [
    { id: "stuck", running: false, why: sentence },
    { id: "after_it", running: true, why: null },
  ]);
  assertEquals(fatal, [sentence]);
  const failed = log.records.find((r) => r.event === "subsystem_failed");
  assertEquals((failed as unknown as { subsystem: string }).subsystem, "stuck");
  assertEquals(clock.pending, 0, "the later start's limit was cleared when it finished");
});

Deno.test("a start that finishes after its limit is stopped, never routed to", async () => {
  const { host, log, limitMs } = world();
  const clock = new ManualClock();
  const entered = Promise.withResolvers<void>();
  const start = Promise.withResolvers<{ stop: () => Promise<void> }>();
  let stopped = 0;
  const slow = testManifest("slow", { note: "finishes when the test says" }, () => {
    entered.resolve();
    return start.promise;
  });
  const registry = new Registry([slow], clock);
  const booted = registry.boot(host);
  await entered.promise;
  clock.advanceBy(limitMs);
  await booted;
  start.resolve({ stop: () => Promise.resolve(void stopped++) });
  await settle();
  assertEquals(stopped, 1, "what the late start began was stopped");
  assertEquals(lateEvents(log), ["stopped"]);
  assertEquals(registry.states()[0].running, false);
  await registry.stop();
  assertEquals(stopped, 1, "not stopped again at shutdown");
});

Deno.test("a start that fails after its limit is logged, not thrown", async () => {
  const { host, log, limitMs } = world();
  const clock = new ManualClock();
  const entered = Promise.withResolvers<void>();
  const start = Promise.withResolvers<never>();
  const slow = testManifest("slow_then_broken", { note: "fails when the test says" }, () => {
    entered.resolve();
    return start.promise;
  });
  const registry = new Registry([slow], clock);
  const booted = registry.boot(host);
  await entered.promise;
  clock.advanceBy(limitMs);
  await booted;
  // Unheard, this rejection would fail the test (Deno's own check) as it would end forge.
  start.reject(new TypeError("Cannot read properties of undefined (reading 'open')"));
  await settle();
  assertEquals(lateEvents(log), ["failed"]);
});

Deno.test("a module that loads after its start's limit is never created", async () => {
  const { host, log, limitMs } = world();
  const clock = new ManualClock();
  let created = false;
  const loaded = Promise.withResolvers<void>();
  const base = testManifest("slow_import", { note: "its module loads when the test says" }, () => {
    created = true;
  });
  const slowImport = { ...base, load: () => loaded.promise.then(() => base.load!()) };
  const registry = new Registry([slowImport], clock);
  const booted = registry.boot(host);
  await settle();
  clock.advanceBy(limitMs);
  await booted;
  loaded.resolve();
  await settle();
  assert(!created, "a start given up on began nothing");
  assertEquals(lateEvents(log), ["not_created"]);
});
