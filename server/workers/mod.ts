import { ownWords } from "../words.ts";
import {
  type Command,
  type Slot,
  slotName,
  type SpawnWorkerBody,
  type WrappedPrompt,
} from "../../protocol/mod.ts";
import { defineSubsystem, type Host, Refusal } from "../subsystem.ts";
import { deliverPeer } from "../peer_delivery.ts";
import type { SeatManager } from "../workspace/seats/manager.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { checkFamilies } from "./rules.ts";
import { WORKER_TOOLS, workerTools } from "./tools.ts";
import { Workers } from "./workers.ts";

export { Workers } from "./workers.ts";

type Of<N extends Command["name"]> = NonNullable<Extract<Command, { name: N }>["fields"]>;

/**
 * The workers area: a core area (no switch) over the seats. Commands (the original's):
 * `spawn_worker` and `despawn_worker` answer through `reply` (WorkerSpawnReply as serde's
 * `{"Ok"|"Err"}`, DespawnResult; spec: command > reply_to), `close_worker`, and the two deliveries
 * between a lead and its workers (a forged `peer` turn through Host.deliver, announced as
 * `peer_envelope_appended`). Tools: the lead-only `agents__spawn`, `agents__despawn`,
 * `agents__update`, `agents__capacity` (the original forge's `agents` tool family). It lends the
 * seats `spawn_session` for a worker row and `close_session`'s "a lead's workers go first".
 */
export function workersArea(seats: () => SeatManager | null) {
  return defineSubsystem({
    id: "workers",
    note: "a lead's workers: seats in their own git worktrees, durable across restarts",
    switch: null,
    area: null,
    verbs: [],
    commands: [
      "spawn_worker",
      "despawn_worker",
      "close_worker",
      "deliver_worker_prompt",
      "deliver_worker_prompt_to_lead",
    ],
    subjects: [],
    binary: [],
    tools: WORKER_TOOLS,
    load: () =>
      Promise.resolve({
        create: (host: Host) => {
          const manager = seats();
          if (!manager) throw new Error("the seats are not running");
          const workers = new Workers(host, manager);
          manager.workerHooks = {
            spawnSession: (key, launch) => workers.spawnSession(key, launch),
            closeWorker: async (key) => {
              if (!workers.record(key)) return false;
              await workers.close(
                workers.project("close_session", `${key.org}/${key.project}`),
                key.label,
              );
              return true;
            },
            closeWorkersOf: (lead) => workers.closeWorkersOf(lead),
          };
          void workers.boot().catch((err) => host.log.warn("workers_boot_failed", { error: err }));
          const deliver = async (what: string, target: Slot, wrapped: WrappedPrompt) => {
            try {
              await deliverPeer(host, target, wrapped);
            } catch (err) {
              const why = ownWords(err, {
                log: host.log,
                event: "deliver_failed",
                fallback: "forge could not hand the message over; the log has the cause",
              });
              throw new Refusal("dispatch", `${what}: ${why}`, target);
            }
          };
          return {
            verbs: {},
            subjects: {},
            tools: workerTools(workers),
            commands: {
              spawn_worker: async (c: { fields: Of<"spawn_worker"> }): Promise<SpawnWorkerBody> => {
                const f = c.fields;
                try {
                  const project = workers.project("spawn_worker", f.project_key);
                  const reply = await workers.spawn({
                    project,
                    label: f.label,
                    charter: f.charter,
                    spawnedBy: f.spawned_by,
                    kick: f.kick ?? null,
                    resumeKick: f.resume_kick ?? null,
                    interactive: f.interactive,
                    families: checkFamilies("spawn_worker", f.mcp_families),
                    resume: !!f.resume_existing || f.from_boot_respawn,
                    fromBoot: f.from_boot_respawn,
                  });
                  return { Ok: reply };
                } catch (err) {
                  if (err instanceof Refusal) return { Err: err.message };
                  throw err;
                }
              },
              despawn_worker: async (c: { fields: Of<"despawn_worker"> }) => {
                const f = c.fields;
                const project = workers.project("despawn_worker", f.project_key);
                return await workers.despawn(project, f.label, f.force);
              },
              close_worker: async (c: { fields: Of<"close_worker"> }) => {
                const f = c.fields;
                await workers.close(workers.project("close_worker", f.project_key), f.label);
              },
              deliver_worker_prompt: async (c: { fields: Of<"deliver_worker_prompt"> }) => {
                const f = c.fields;
                const project = workers.project("deliver_worker_prompt", f.project_key);
                const target = { org: project.org, project: project.name, label: f.target_label };
                if (f.target_label === LEAD_LABEL || !workers.isLive(target)) {
                  throw new Refusal(
                    "dispatch",
                    `deliver_worker_prompt: ${slotName(target)} is not a live worker`,
                  );
                }
                await deliver("deliver_worker_prompt", target, f.wrapped);
              },
              deliver_worker_prompt_to_lead: async (
                c: { fields: Of<"deliver_worker_prompt_to_lead"> },
              ) => {
                const f = c.fields;
                if (f.target_lead_key.label !== LEAD_LABEL) {
                  throw new Refusal(
                    "dispatch",
                    `deliver_worker_prompt_to_lead: ${slotName(f.target_lead_key)} is not a lead`,
                  );
                }
                await deliver("deliver_worker_prompt_to_lead", f.target_lead_key, f.wrapped);
              },
            },
            onUpdate: (update) => workers.heard(update),
            stop: () => workers.stop(),
          };
        },
      }),
  });
}
