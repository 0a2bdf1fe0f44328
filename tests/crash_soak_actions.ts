/**
 * Test support: the crash soak's pieces of work (tests/crash_soak.ts), each sent to the running
 * forge and then waited on for a random moment, which is when the soak kills it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { workersHold } from "./crash_soak_checks.ts";
import { thread } from "./crash_soak_world.ts";
import { ask } from "./harness.ts";
import { chatOf, command, type RunningForge } from "./seats_harness.ts";

/** What a piece of work reads and leaves on the soak. */
export interface Actor {
  c: ForgeClient | null;
  lead: Slot;
  r: { int(n: number): number };
  state: string;
  forge: RunningForge | null;
  /** The subject of a task created and perhaps cut short by the kill. */
  taskInFlight: string | null;
}

/** One piece of work, and the moment it is killed in. */
export async function act(s: Actor, action: string, k: number): Promise<void> {
  const c = s.c!;
  switch (action) {
    case "turn": {
      command(c, "prompt", {
        key: s.lead,
        text: `[[script:slow]] turn ${k}`,
        attachments: [],
      });
      await c.next((m) => chatOf(m)?.type === "stream_event" || chatOf(m)?.type === "result");
      return await sleep(s.r.int(1200));
    }
    case "task":
      s.taskInFlight = `task ${k}`;
      c.send({
        kind: "command",
        command: { task_create: { project: "alpha", subject: `task ${k}`, parent: null } },
      });
      return await sleep(s.r.int(25));
    case "settings": {
      const doc = c.frames.flatMap((f) => f.type === "json" ? [f.data] : [])
        .find((m) => m.kind === "settings");
      const fingerprint = (doc!.document as { fingerprint: string }).fingerprint;
      c.send({
        kind: "settings_edit",
        fingerprint,
        id: k,
        edits: [{
          area: "server",
          key_path: "server.first_frame_cap_kb",
          pattern: "server.first_frame_cap_kb",
          op: "set",
          value: 2048 + k,
        }],
      });
      return await sleep(s.r.int(25));
    }
    case "review":
      c.send({
        kind: "command",
        reply_to: 10_000 + k,
        command: {
          upsert_review_thread: { project: "alpha", branch: "main", thread: thread(k) },
        },
      });
      return await sleep(s.r.int(25));
    case "spawn": {
      const label = `w${k}`;
      const asked = ask(c, "spawn_worker", {
        project_key: "alpha",
        label,
        charter: "soak",
        // Its first turn writes the transcript its history is held against at every restart.
        kick: `worker ${k} begins`,
        spawned_by: s.lead,
      }).catch(() => null); // the kill may come first: the next boot says what landed
      await Promise.race([asked, sleep(s.r.int(4000))]);
      return;
    }
    case "despawn": {
      const live = workersHold(s.state, s.forge!.serverPid()).live;
      if (live.length === 0) return;
      const asked = ask(c, "despawn_worker", {
        project_key: "alpha",
        label: live[0],
        force: true,
      })
        .catch(() => null);
      await Promise.race([asked, sleep(s.r.int(1500))]);
      return;
    }
  }
}
