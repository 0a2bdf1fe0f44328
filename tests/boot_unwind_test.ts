// Spawned tier (the seats' real CLI): a boot that fails after an auto_start lead's CLI started
// ends that CLI before the error reaches the caller; it would otherwise outlive the forge that
// launched it, a child of nobody. The account gateway goes too, and what is thrown is the boot's
// failure in forge's words, naming the phase (server/boot/failure.ts). No phase after the seats
// throws on any config today, so each test breaks one.
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import type { AnyManifest, Host } from "../server/subsystem.ts";
import { testManifest } from "./registry_fakes.ts";
import { alive, childrenOf, seatWorld, until } from "./seats_harness.ts";

type Log = ReturnType<typeof memoryLogger>;

/** A test subsystem booted after the seats: `create` runs once the lead's CLI has started. */
function afterSeats(log: Log, id: string, create: (host: Host) => void) {
  return testManifest(id, {}, async (host) => {
    await until(
      () => log.records.some((r) => r.event === "seat_spawned"),
      30_000,
      "the lead's CLI to start",
    );
    create(host);
  });
}

/** Boots forge with `extra` over a world whose lead auto-starts; the boot must fail with the
 * sentence `headline`, leaving the lead's CLI ended, the gateway closed and the config free for
 * the next. Answers the boot's log. */
async function failedBootLeavesNothing(extra: (log: Log) => AnyManifest[], headline: string) {
  await using world = await seatWorld([{ name: "alpha" }]);
  const log = memoryLogger();
  const failed = await startServer({
    configPath: world.configPath,
    port: 0,
    gatewayPort: 0,
    log,
    statusSchedule: () => ({ stop: () => {} }),
    latestSchedule: () => ({ stop: () => {} }),
    extra: extra(log),
  }).then((server) => server.stop().then(() => null), (err: Error) => err);
  assertEquals(failed?.message, headline);
  const spawned = log.records.filter((r) => r.event === "seat_spawned") as unknown as {
    pid: number;
  }[];
  assert(spawned.length === 1, `one CLI was to start: ${JSON.stringify(spawned)}`);
  const pid = spawned[0].pid;
  assert(!alive(pid), `the lead's CLI (pid ${pid}) outlived the failed boot`);
  assert(
    !childrenOf(Deno.pid).includes(pid),
    `the lead's CLI (pid ${pid}) is still this process's child`,
  );
  // The account gateway the workspace phase started listens no more.
  const gateway = log.records.find((r) => r.event === "gateway_listening") as unknown as {
    port: number;
  };
  await assertRejects(
    () => Deno.connect({ hostname: "127.0.0.1", port: gateway.port }),
    /refused/i,
  );
  // The state dir and the port were let go: a forge started again over the config boots.
  const again = await world.startInProcess();
  await again.stop();
  return log;
}

Deno.test("a socket phase that fails after a lead's CLI started ends that CLI", async () => {
  const fault = "the socket phase could not route the update stream: this test broke it";
  // The socket phase's subscription to the update stream throws.
  const breaker = (log: Log) => [
    afterSeats(log, "fault_in_socket_phase", (host) => {
      host.workspace.stream.subscribe = () => {
        throw new Error(fault);
      };
    }),
  ];
  // The fault is a sentence forge wrote: it is the reason, after the phase it stopped.
  const headline = `forge could not start while opening the socket (the socket phase): ${fault}`;
  await failedBootLeavesNothing(breaker, headline);
});

Deno.test("a subsystems phase that fails after a lead's CLI started ends that CLI", async () => {
  // One subsystem failing to start disables it alone (registry.ts), so the phase is broken in the
  // registry's own reporting: home's fatal_error, as the failure of a later subsystem is told,
  // throws the engine's TypeError. forge names the phase; the engine's words are the log's cause.
  const engine = "Cannot read properties of undefined (reading 'fatal')";
  const breaker = (log: Log) => [
    afterSeats(log, "breaks_the_report", (host) => {
      host.workspace.setFatal = () => {
        throw new TypeError(engine);
      };
    }),
    testManifest("fails_at_start", {}, () => {
      throw new Error("this test's subsystem does not start");
    }),
  ];
  const log = await failedBootLeavesNothing(
    breaker,
    "forge could not start while starting the subsystems (the subsystems phase): an internal " +
      "error stopped it; forge.log has its cause under boot_failed",
  );
  const failed = log.records.find((r) => r.event === "boot_failed") as unknown as {
    phase: string;
    error: { message: string };
  };
  assertEquals([failed.phase, failed.error.message], ["subsystems", engine]);
});
