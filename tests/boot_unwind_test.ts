// Spawned tier (the seats' real CLI): a boot that fails after an auto_start lead's CLI started
// ends that CLI before the error reaches the caller; it would otherwise outlive the forge that
// launched it, a child of nobody. The account gateway goes too, and the boot's own error is what
// is thrown. No phase after the seats throws on any config today, so each test breaks one.
import { assert, assertRejects } from "./assert.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import { type AnyManifest, defineSubsystem, type Host } from "../server/subsystem.ts";
import type { ToolSpec } from "../server/tool_spec.ts";
import { alive, childrenOf, seatWorld, until } from "./seats_harness.ts";

type Log = ReturnType<typeof memoryLogger>;

/** A test subsystem booted after the seats: `create` runs once the lead's CLI has started. */
function afterSeats(log: Log, id: string, create: (host: Host) => void, tools?: ToolSpec[]) {
  return defineSubsystem({
    id,
    note: "a test subsystem",
    switch: null,
    area: null,
    verbs: [],
    commands: [],
    subjects: [],
    binary: [],
    tools,
    load: () =>
      Promise.resolve({
        create: async (host: Host) => {
          await until(
            () => log.records.some((r) => r.event === "seat_spawned"),
            30_000,
            "the lead's CLI to start",
          );
          create(host);
          return { verbs: {}, commands: {}, subjects: {} };
        },
      }),
  }) as AnyManifest;
}

/** Boots forge with `extra` over a world whose lead auto-starts; the boot must fail as `fault`
 * says, leaving the lead's CLI ended, the gateway closed and the config free for the next. */
async function failedBootLeavesNothing(extra: (log: Log) => AnyManifest[], fault: RegExp) {
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
        extra: extra(log),
      }),
    fault,
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
  await failedBootLeavesNothing(breaker, new RegExp(`^${fault}$`));
});

Deno.test("a subsystems phase that fails after a lead's CLI started ends that CLI", async () => {
  // The registry's own boot throws past its per-subsystem catch: a subsystem after the waiting
  // one declares a tool with no name, which the tool check reads before any start.
  const nameless = { family: "fault", roles: ["lead"] } as unknown as ToolSpec;
  const breaker = (log: Log) => [
    afterSeats(log, "waits_for_the_lead", () => {}),
    afterSeats(log, "fault_in_registry_boot", () => {}, [nameless]),
  ];
  await failedBootLeavesNothing(breaker, /startsWith/);
});
