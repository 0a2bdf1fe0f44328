// Spawned tier, the real CLI: a worker's review watch ends with its seat. spec: session rows
// `work`, `git`, `file_index` (the seat's change watch); command > reply_to (despawn_worker). A
// despawn forgets the seat before its worktree is removed, so the watch a subscriber started is
// gone before the removal's writes: none of them is scanned for a seat that no longer exists.
import type { Slot } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { ask, exists, git } from "./harness.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("review watch: despawning a worker a client still holds ends its watch", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
  const repo = world.projectDir("alpha");
  git(repo, "init", "-q", "-b", "main");
  Deno.writeTextFileSync(`${repo}/README`, "alpha\n");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "first");
  const lead = world.lead("alpha");
  const w1: Slot = { ...lead, label: "w1" };
  const forge = await world.startInProcess();
  const c = await forge.ready();
  const spawned = await ask(c, "spawn_worker", {
    project_key: "alpha",
    label: "w1",
    charter: "Hold still.",
    spawned_by: lead,
    interactive: false,
    from_boot_respawn: false,
  });
  const worktree = (spawned.Ok as Msg).worktree as string;
  await subscribeSeat(c, w1);
  const watchLog = () =>
    forge.log.records.flatMap((r) => {
      const f = r as unknown as { seat?: string; why?: string };
      if (f.seat !== "Acme/alpha/w1") return [];
      if (r.event === "review_watch_started") return ["started"];
      return r.event === "review_watch_stopped" ? [`stopped:${f.why}`] : [];
    });
  assertEquals(watchLog(), ["started"]);

  const gone = await ask(c, "despawn_worker", { project_key: "alpha", label: "w1", force: true });
  assert("despawned" in gone, `despawned: ${JSON.stringify(gone)}`);
  assert(!exists(worktree), "the worktree is removed");
  assertEquals(watchLog(), ["started", "stopped:seat_gone"], "the seat's end ended the watch");
  await forge.stop();
});
