// Spawned tier: forge runs as a process, its lead runs the real claude CLI against the fake
// Messages API (fixtures/workers/script.json) and spawns workers through agents__spawn; each
// worker is the real CLI in its own git worktree. The original forge's `agents` family
// (agents__spawn / despawn / capacity: the cap, the dirty-tree block, the branch clean-up rule,
// durable workers); spec: command > reply_to (spawn_worker, despawn_worker answer through reply,
// a refusal in the body); home > agents (tree, work read in the worktree); worker_status_changed.
import type { Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask, exists, git } from "./harness.ts";
import { promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

const SCRIPT = new URL("../fixtures/workers/script.json", import.meta.url).pathname;
type Msg = Record<string, unknown>;

async function homeAgents(c: ForgeClient): Promise<Msg[]> {
  c.send({ kind: "subscribe", what: "home" });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  c.send({ kind: "unsubscribe", what: "home" });
  return (snap.data as { agents: Msg[] }).agents;
}

Deno.test("workers: a lead spawns two through its tools, each in its own worktree and branch; the cap refuses a third; a message reaches the lead; a restart brings both back on their sessions; dirty and clean despawns; spawn/despawn through reply both ways", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const repo = world.projectDir("alpha");
  git(repo, "init", "-q", "-b", "main");
  Deno.writeTextFileSync(`${repo}/README`, "alpha\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
  const lead = world.lead("alpha");
  const w = (label: string): Slot => ({ ...lead, label });

  let forge = await world.startForge();
  let c = await forge.ready();
  const watcher = await forge.ready();
  watcher.send({ kind: "subscribe", what: "home" });
  await watcher.next((m) => m.kind === "snapshot");
  await subscribeSeat(c, lead, true);

  // Two spawns succeed, the third is past max_workers (2), capacity says 2 of 2.
  const turn = await promptTurn(c, lead, "[[script:spawn_two]] split the work");
  const results = toolResultsOf(turn);
  assertEquals(results.map((r) => r.isError), [false, false, true, false]);
  const spawned = results.slice(0, 2).map((r) => JSON.parse(r.text));
  assertMatch(results[2].text, /already runs 2 of its 2 workers \(max_workers\)/);
  assertEquals(JSON.parse(results[3].text).available, 0);
  const trees = spawned.map((s) => s.worktree as string);
  assert(trees[0] !== trees[1] && !trees[0].startsWith(repo), "each worker has its own worktree");
  assertEquals(trees.map((t) => git(t, "rev-parse", "--abbrev-ref", "HEAD")), [
    "worktree-w1",
    "worktree-w2",
  ]);
  // The refused third left nothing behind.
  assert(!exists(trees[0].replace(/w1$/, "w3")), "no worktree for the refused spawn");
  assertEquals(git(repo, "branch", "--list", "worktree-w3"), "");
  // Each worker is a real CLI running in its worktree; home's row carries tree and work there.
  const added = [];
  for (let i = 0; i < 2; i++) {
    added.push(
      updateOf(
        await watcher.next((m) => !!updateOf(m, "worker_status_changed")),
        "worker_status_changed",
      )!,
    );
  }
  assertEquals(added.map((u) => [u.action, u.worktree]), [["added", "intact"], [
    "added",
    "intact",
  ]]);
  const rows = await homeAgents(watcher);
  const row1 = rows.find((r) => (r.slot as Slot).label === "w1")!;
  assertEquals(row1.tree, trees[0]);
  assertEquals((row1.work as Msg).branch, "worktree-w1");
  // Each kick went in as the worker's first user turn.
  assertEquals(await mainCallsWith(world, "Start on the parser.", 1), 1);
  assertEquals(await mainCallsWith(world, "Start on the printer.", 1), 1);

  // The lead's words reach a worker (deliver_worker_prompt); the worker's agent answers with
  // agents__send_message, which reaches the lead as a forged turn.
  command(c, "deliver_worker_prompt", {
    caller: lead,
    project_key: "alpha",
    target_label: "w1",
    wrapped: {
      id: "m-1",
      kind: "message",
      sender_name: "alpha",
      sender_org: "Acme",
      body: "[[script:report]] Report when the parser is done.",
    },
  });
  const forged = await c.next(
    (m) => chatOf(m)?.type === "user" && chatOf(m)?.source === "peer",
    60_000,
  );
  assertMatch(
    JSON.stringify(chatOf(forged)!.message),
    /from agent 'alpha\/w1'[\s\S]*The parser is done/,
  );
  await untilResult(c);

  // A restart brings both workers back on their sessions, told to continue.
  await forge.stop();
  forge = await world.startForge();
  c = await forge.ready();
  for (const [i, label] of ["w1", "w2"].entries()) {
    const snap = await subscribeSeat(c, w(label));
    assertEquals((snap.header as Msg).session_id ?? spawned[i].session_id, spawned[i].session_id);
  }
  const home2 = await homeAgents(c);
  for (const [i, label] of ["w1", "w2"].entries()) {
    const row = home2.find((r) => (r.slot as Slot).label === label)!;
    assert(row.lifecycle !== "Sleeping" && row.lifecycle !== "Failed", `${label} is back`);
    assertEquals(row.tree, trees[i]);
  }
  assertEquals(await mainCallsWith(world, "Continue your charter", 2), 2);

  // A dirty worktree blocks despawn; force removes it, and the branch (all reachable) goes.
  Deno.writeTextFileSync(`${trees[0]}/scratch.txt`, "wip\n");
  const blocked = await ask(c, "despawn_worker", {
    project_key: "alpha",
    label: "w1",
    force: false,
  }) as Msg;
  assertMatch((blocked.blocked as Msg).reason as string, /1 untracked file/);
  assert(exists(trees[0]), "a blocked despawn keeps the worktree");
  const forced = await ask(c, "despawn_worker", {
    project_key: "alpha",
    label: "w1",
    force: true,
  }) as Msg;
  assertMatch(
    (forced.despawned as Msg).worktree_cleanup_warning as string,
    /discarded 1 untracked file/,
  );
  assert(!exists(trees[0]), "force removed the worktree");
  assertEquals(git(repo, "branch", "--list", "worktree-w1"), "");

  // A clean despawn by the lead's tool removes the worktree and the merged branch.
  Deno.writeTextFileSync(`${trees[1]}/printer.ts`, "export {};\n");
  git(trees[1], "add", ".");
  git(trees[1], "commit", "-q", "-m", "printer");
  git(repo, "merge", "-q", "--ff-only", "worktree-w2");
  // A client of its own: `c` also holds the workers' seats, whose turns end in results too.
  const lc = await forge.ready();
  await subscribeSeat(lc, lead, true);
  const gone = toolResultsOf(await promptTurn(lc, lead, "[[script:despawn_w2]] w2 is merged"));
  assertEquals(JSON.parse(gone[0].text), { status: "despawned" });
  assert(!exists(trees[1]), "the clean worktree is removed");
  assertEquals(git(repo, "branch", "--list", "worktree-w2"), "");

  // spawn_worker / despawn_worker from a client answer through reply, both ways.
  const ok = await ask(c, "spawn_worker", {
    project_key: "alpha",
    label: "w4",
    charter: "Tidy up.",
    spawned_by: lead,
    kick: "Tidy.",
    interactive: false,
    from_boot_respawn: false,
  }) as Msg;
  assertEquals((ok.Ok as Msg).session_choice, "fresh");
  const reserved = await ask(c, "spawn_worker", {
    project_key: "alpha",
    label: "lead",
    charter: "x",
    spawned_by: lead,
    interactive: false,
    from_boot_respawn: false,
  }) as Msg;
  assertMatch(reserved.Err as string, /`lead` is reserved/);
  const noProject = await ask(c, "spawn_worker", {
    project_key: "nope",
    label: "w5",
    charter: "x",
    spawned_by: lead,
    interactive: false,
    from_boot_respawn: false,
  }) as Msg;
  assertMatch(noProject.Err as string, /no project is named `nope`/);
  assertEquals(
    await ask(c, "despawn_worker", { project_key: "alpha", label: "w9", force: false }) as unknown,
    "not_found",
  );
  c.send({
    kind: "command",
    command: { despawn_worker: { project_key: "alpha", label: "w4", force: false } },
  });
  const err = await c.next((m) => m.kind === "error");
  assertEquals(err.what, "reply_to");

  // close_session of the lead closes its workers first.
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  command(c, "close_session", { session_key: lead });
  const closedW4 = await c.next((m) => {
    const u = updateOf(m, "worker_status_changed");
    return !!u && u.action === "status_changed" && (u.status as Msg).label === "w4";
  }, 30_000);
  const leadReleasing = await c.next((m) => {
    const u = updateOf(m, "releasing");
    return !!u && JSON.stringify(u.key) === JSON.stringify(lead);
  }, 30_000);
  assert(
    c.frames.findIndex((f) => f.type === "json" && f.data === closedW4) <
      c.frames.findIndex((f) => f.type === "json" && f.data === leadReleasing),
    "w4 closed before the lead",
  );
  assertEquals(((updateOf(closedW4, "worker_status_changed")!.status) as Msg).live, false);
  await forge.stop();
});

/** Waits (bounded) until `want` main-loop requests whose last user turn holds `needle` were
 * answered by the fake API; answers how many there are. */
async function mainCallsWith(
  world: { apiRequests(): Promise<unknown[]> },
  needle: string,
  want: number,
): Promise<number> {
  const count = async () => {
    const all = await world.apiRequests() as { kind: string; body: { messages?: Msg[] } }[];
    return all.filter((r) =>
      r.kind === "main" &&
      JSON.stringify(r.body.messages?.filter((m) => m.role === "user").at(-1) ?? null)
        .includes(needle)
    ).length;
  };
  let n = await count();
  const deadline = performance.now() + 60_000;
  while (n < want && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    n = await count();
  }
  return n;
}
