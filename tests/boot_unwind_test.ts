// Spawned tier (the seats' real CLI): a boot that fails after an auto_start lead's CLI started
// ends that CLI before the error reaches the caller; it would otherwise outlive the forge that
// launched it, a child of nobody. The boot's own sentence is what is thrown.
import { assert, assertRejects } from "./assert.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import { defineSubsystem, type Host } from "../server/subsystem.ts";
import { alive, childrenOf, seatWorld, until } from "./seats_harness.ts";

const FAULT = "the socket phase could not route the update stream: this test broke it";

/**
 * A subsystem booted after the seats: it waits until the lead's CLI runs, then makes the socket
 * phase fail (its subscription to the update stream throws), the way any later phase may.
 */
function faultAfterSeats(log: ReturnType<typeof memoryLogger>) {
  return defineSubsystem({
    id: "fault_after_seats",
    note: "a test subsystem",
    switch: null,
    area: null,
    verbs: [],
    commands: [],
    subjects: [],
    binary: [],
    load: () =>
      Promise.resolve({
        create: async (host: Host) => {
          await until(
            () => log.records.some((r) => r.event === "seat_spawned"),
            30_000,
            "the lead's CLI to start",
          );
          host.workspace.stream.subscribe = () => {
            throw new Error(FAULT);
          };
          return { verbs: {}, commands: {}, subjects: {} };
        },
      }),
  });
}

Deno.test("a boot that fails after a lead's CLI started ends that CLI and says why", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const log = memoryLogger();
  await assertRejects(
    () =>
      startServer({
        configPath: world.configPath,
        port: 0,
        gatewayPort: 0,
        log,
        statusSchedule: () => ({ stop: () => {} }),
        latestSchedule: () => ({ stop: () => {} }),
        extra: [faultAfterSeats(log)],
      }),
    new RegExp(`^${FAULT}$`),
  );
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
});
