// Spawned tier, the real CLI: the durable side of workers and bad input. The original forge's
// agents__spawn ("a worker whose worktree is gone is not auto-respawned until resume_session
// recreates it"); its spawn_session with a worker role, spawn_worker and close_worker (no worktree
// cleanup); (refused in words, nothing left behind, a spawn that fails half way removes what it
// made); spec: command > reply_to (refusals inside the body).
import type { Slot } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask, exists, git } from "./harness.ts";
import { commandOf, cwdOf, seatWorld, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

function makeRepo(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  Deno.writeTextFileSync(`${dir}/README`, "x\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "first");
}

const status = (m: Msg, label: string, live: boolean) => {
  const u = updateOf(m, "worker_status_changed");
  return !!u && u.action === "status_changed" && (u.status as Msg).label === label &&
    (u.status as Msg).live === live;
};

Deno.test("workers: a gone worktree is not respawned until asked; close_worker keeps it; spawn_session brings a worker back; bad input leaves nothing behind; a crash is news", async () => {
  await using world = await seatWorld([
    { name: "alpha" },
    { name: "beta", autoStart: false },
    { name: "gamma", autoStart: false },
    { name: "delta", autoStart: false },
    { name: "epsilon", autoStart: false },
  ]);
  for (const p of ["alpha", "beta", "delta", "epsilon"]) makeRepo(world.projectDir(p));
  const text = Deno.readTextFileSync(world.configPath)
    .replace(`name = "beta"\n`, `name = "beta"\nmax_workers = 0\n`)
    .replace(`name = "delta"\n`, `name = "delta"\nenv_file = "/nonexistent-forge-test/x.env"\n`);
  Deno.writeTextFileSync(world.configPath, text);
  const trees = `${world.dir}/forge/state/worktrees/Acme`;
  const lead = world.lead("alpha");
  const spawn = (project: string, label: string, extra: Msg = {}) =>
    ask(c, "spawn_worker", {
      project_key: project,
      label,
      charter: "Keep the tests green.",
      spawned_by: world.lead(project),
      kick: "Begin.",
      interactive: false,
      from_boot_respawn: false,
      ...extra,
    });

  let forge = await world.startForge();
  let c = await forge.ready();
  const first = (await spawn("alpha", "w1")).Ok as Msg;
  assertEquals(first.worktree, `${trees}/alpha/w1`);

  // The worktree goes while forge is down: after the restart the worker is not respawned.
  await forge.stop();
  Deno.removeSync(first.worktree as string, { recursive: true });
  forge = await world.startForge();
  c = await forge.ready();
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot")).data as { agents: Msg[] };
  const row = home.agents.find((r) => (r.slot as Slot).label === "w1");
  assert(!row || row.lifecycle === "Sleeping", `w1 was not respawned: ${JSON.stringify(row)}`);
  assert(!exists(first.worktree as string), "nothing recreated the worktree unasked");
  // Asked to resume: the worktree is made again on its branch and the session resumed.
  const back = (await spawn("alpha", "w1", { resume_existing: first.session_id })).Ok as Msg;
  assertEquals([back.session_choice, back.session_id], ["resumed", first.session_id]);
  assertEquals(git(back.worktree as string, "rev-parse", "--abbrev-ref", "HEAD"), "worktree-w1");
  await c.next((m) => status(m, "w1", true), 30_000); // the resume's own news

  // close_worker ends the process and keeps the worktree; spawn_session brings it back.
  c.send({ kind: "command", command: { close_worker: { project_key: "alpha", label: "w1" } } });
  const closed = updateOf(
    await c.next((m) => status(m, "w1", false), 30_000),
    "worker_status_changed",
  )!;
  assertEquals([closed.worktree, (closed.status as Msg).live], ["intact", false]);
  assert(exists(back.worktree as string), "close_worker keeps the worktree");
  c.send({
    kind: "command",
    command: {
      spawn_session: {
        key: { ...lead, label: "w1" },
        role: { worker: { label: "w1", wrote_row: false } },
        launch_settings: {},
      },
    },
  });
  const again = updateOf(
    await c.next((m) => status(m, "w1", true), 60_000),
    "worker_status_changed",
  )!;
  assertEquals([(again.status as Msg).live, (again.status as Msg).session_id], [
    true,
    first.session_id,
  ]);

  // Bad input: refused in the reply's body, in words, with nothing made.
  assertMatch((await spawn("beta", "w1")).Err as string, /disabled for beta \(max_workers = 0\)/);
  assertMatch((await spawn("gamma", "w1")).Err as string, /is not a git repository/);
  assertMatch((await spawn("alpha", " ")).Err as string, /label is empty/);
  assertMatch((await spawn("alpha", "w2", { charter: "  " })).Err as string, /charter is empty/);
  assertMatch(
    (await spawn("alpha", "w2", { spawned_by: { ...lead, label: "w1" } })).Err as string,
    /workers cannot spawn other workers/,
  );
  assertMatch(
    (await spawn("alpha", "w1")).Err as string,
    /already live; one live worker per label/,
  );
  // A spawn whose CLI cannot start removes the worktree and the branch it made.
  const half = (await spawn("delta", "w1")).Err as string;
  assertMatch(half, /did not start: .*env_file/);
  assert(!exists(`${trees}/delta/w1`), "no orphan worktree");
  assertEquals(git(world.projectDir("delta"), "branch", "--list", "worktree-w1"), "");
  assertEquals(git(world.projectDir("delta"), "worktree", "list").split("\n").length, 1);
  for (const p of ["beta", "gamma"]) assert(!exists(`${trees}/${p}/w1`), `nothing made for ${p}`);
  // A worktree folder that cannot be made: refused in words, and not remembered as spawning.
  Deno.writeTextFileSync(`${trees}/epsilon`, "a file where the folder goes\n");
  assertMatch(
    (await spawn("epsilon", "w1")).Err as string,
    /could not make .*epsilon: a file stands where a directory should be/,
  );
  const book = Deno.readTextFileSync(`${world.dir}/forge/state/workers/workers.json`);
  assert(!book.includes("epsilon"), `the book forgot the failed spawn: ${book}`);
  assertEquals(git(world.projectDir("epsilon"), "branch", "--list", "worktree-w1"), "");
  c.send({ kind: "command", command: { close_worker: { project_key: "alpha", label: "nobody" } } });
  const refused = await c.next((m) => m.kind === "error");
  assertMatch(refused.why as string, /alpha has no worker labelled `nobody`/);
  // A worker's CLI that dies unasked is news: status_changed, not live, the worktree intact.
  const pids = [...Deno.readDirSync("/proc")].map((e) => e.name).filter((n) => /^\d+$/.test(n))
    .map(Number).filter((pid) => cwdOf(pid) === back.worktree && /claude/.test(commandOf(pid)));
  assert(pids.length > 0, "the worker's CLI runs in its worktree");
  for (const pid of pids) Deno.kill(pid, "SIGKILL");
  const crashed = updateOf(
    await c.next((m) => status(m, "w1", false), 30_000),
    "worker_status_changed",
  )!;
  assertEquals(crashed.worktree, "intact");

  await forge.stop();
});
