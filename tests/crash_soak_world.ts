/**
 * Test support: the crash soak's world before its first boot (tests/crash_soak.ts): the project
 * a git repo (workers need one), one worker at most, a schedule that never falls due and one
 * connector subscription, both of which every restart must keep as they were.
 */
import type { ReviewThread } from "../protocol/mod.ts";
import { git } from "./harness.ts";
import type { SeatWorld } from "./seats_harness.ts";

/** Seeds the world; answers the subscription file's text, which must never move. */
export async function seedWorld(world: SeatWorld, state: string): Promise<string> {
  const repo = world.projectDir("alpha");
  git(repo, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${repo}/README.md`, "soak\n");
  git(repo, "add", ".");
  git(repo, "-c", "user.email=s@forge.invalid", "-c", "user.name=s", "commit", "-q", "-m", "1");
  await Deno.writeTextFile(
    world.configPath,
    (await Deno.readTextFile(world.configPath)) + "max_workers = 1\n",
  );
  await Deno.mkdir(`${state}/board`, { recursive: true });
  await Deno.mkdir(`${state}/connectors`, { recursive: true });
  const now = new Date().toISOString();
  await writeJson(`${state}/board/cron.json`, {
    version: 1,
    crons: [{
      id: "c-5eed0000",
      org: "Acme",
      project: "alpha",
      schedule: { recurring: "0 0 1 1 *" },
      prompt: "the new year",
      description: "yearly",
      created_by: "lead",
      created_at: now,
      next_fire: `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`,
      last_fired: null,
      last_error: null,
    }],
  });
  const subscriptions = JSON.stringify({
    version: 1,
    gotify: [{
      id: crypto.randomUUID(),
      org: "Acme",
      project: "alpha",
      owner: "lead",
      applications: ["ci"],
      min_priority: 5,
    }],
    slack: [],
  });
  await Deno.writeTextFile(`${state}/connectors/subscriptions.json`, subscriptions);
  return subscriptions;
}

/** A review thread the soak writes mid-kill (the shape upsert_review_thread takes). */
export function thread(k: number): ReviewThread {
  const at = new Date().toISOString();
  return {
    id: `t${k}`,
    anchor: {
      path: "README.md",
      side: "new",
      line: 1,
      content_hash: "1",
      context: ["soak"],
      base_ref: "main",
    },
    comments: [{ author: "user", text: `thread ${k}`, at, review_id: null }],
    status: "open",
    created_at: at,
    updated_at: at,
    commit: null,
  };
}

/** Writes forge's own file while forge is down, whole (the outage's schedule). */
export async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(`${path}.soak`, JSON.stringify(value));
  await Deno.rename(`${path}.soak`, path);
}
