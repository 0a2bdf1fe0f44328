// Spawned tier: shutdown leaves no process behind, and a restart finds none - after a clean
// SIGTERM (stdin EOF, 5 s, SIGTERM, 2 s, SIGKILL, as the original forge stops its CLI) even with a
// background Bash running under the CLI, and after the server itself was killed with SIGKILL.
import { assert, assertEquals } from "./assert.ts";
import {
  alive,
  chatOf,
  childrenOf,
  command,
  commandOf,
  cwdOf,
  type RunningForge,
  seatWorld,
  until,
  updateOf,
} from "./seats_harness.ts";

/** The CLI the server runs for a project: its child working in the project's tree. */
function cliOf(forge: RunningForge, dir: string): number {
  const pid = childrenOf(forge.serverPid()).find((p) =>
    cwdOf(p) === dir && commandOf(p).includes("claude")
  );
  if (!pid) throw new Error(`no claude child works in ${dir}`);
  return pid;
}

async function connected(forge: RunningForge, project: string) {
  const c = await forge.ready();
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot")).data as {
    agents: { slot: { project: string }; lifecycle: string }[];
  };
  const row = home.agents.find((a) => a.slot.project === project)!;
  if (row.lifecycle !== "Idle") {
    await c.next((m) => !!updateOf(m, "connected"), 60_000);
  }
  return c;
}

Deno.test("a restart finds no orphans: clean shutdown with a background tool, then a killed server", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const dir = world.projectDir("alpha");
  const lead = world.lead("alpha");

  // Run 1: a background `sleep 30` runs under the CLI when the server is told to stop.
  const first = await world.startForge();
  const c = await connected(first, "alpha");
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  await c.next((m) => m.kind === "snapshot" && m.subject !== "home");
  command(c, "prompt", { key: lead, text: "[[script:bg]] start a job", attachments: [] });
  // `echo` and `sleep` are read-only to the CLI, so it runs the job without asking.
  await c.next((m) => chatOf(m)?.type === "result", 30_000);
  const cli = cliOf(first, dir);
  const tools = (function below(pid: number): number[] {
    return childrenOf(pid).flatMap((child) => [child, ...below(child)]);
  })(cli);
  assert(tools.some((p) => commandOf(p).includes("sleep 30")), "the background job runs");
  // The CLI waits for its job after stdin EOF, so the 5 s grace runs out and SIGTERM ends both;
  // the server still exits cleanly. (How long that stop takes is the lifecycle bench's figure.)
  assertEquals((await first.stop()).code, 0);
  // A tool process the CLI ended may sit a moment as a zombie until init collects it.
  for (const pid of [cli, ...tools]) {
    await until(() => !alive(pid), 3_000, `${pid} (${commandOf(pid)}) to end with the server`);
  }

  // Run 2 boots clean, then its server process is killed outright: the CLI reads EOF and ends.
  const second = await world.startForge();
  await connected(second, "alpha");
  const cli2 = cliOf(second, dir);
  Deno.kill(second.serverPid(), "SIGKILL");
  await second.stop();
  await until(() => !alive(cli2), 10_000, "the orphaned CLI to end on stdin EOF");

  // Run 3 finds nothing left of either run.
  const third = await world.startForge();
  await connected(third, "alpha");
  const log = await Deno.readTextFile(`${world.dir}/forge/forge.log`);
  assert(!log.includes('"event":"seat_orphan_reaped"'), "nothing was left to reap");
  const mine = childrenOf(third.serverPid()).filter((p) => commandOf(p).includes("claude"));
  assertEquals(mine.length, 1, "run 3 runs exactly its own CLI");
  assertEquals((await third.stop()).code, 0);
});
