import type { LaunchSettings, SeatFields, Slot } from "../../../protocol/mod.ts";
import type { ProjectConfig } from "../../config/types.ts";
import type { SeatEnv } from "./env.ts";
import type { SeatHistory } from "./history.ts";
import { type LaunchPlan, type Occupancy, planLaunch, transcriptOf } from "./launch.ts";

export interface StartOptions {
  occupancy: Occupancy;
  cwd: string;
  launch?: LaunchSettings;
}

/** What planning a start reads of its seat. */
export interface StartParts {
  slot: Slot;
  project: ProjectConfig;
  env: SeatEnv;
  /** The seat's conversations: a new occupant's begins here (history.ts). */
  history: SeatHistory;
}

/** A start settled up to its spawn. */
export interface PlannedStart {
  sessionId: string;
  /** The launch; null when it cannot happen, and then `refused` is why. */
  plan: LaunchPlan | null;
  refused: unknown;
  /** What `spawning` tells. */
  spawning: SeatFields<"spawning">;
}

/**
 * Settles what a start needs before its CLI runs: the launch plan (refused while the seats'
 * books could not record it), and the occupant's conversation begun, seeded from its transcript
 * (history.ts). A launch that cannot happen does not throw: it comes back as `refused`, for the
 * seat to fail with once `spawning` was told.
 */
export async function planStart(
  parts: StartParts,
  cwd: string,
  opts: StartOptions,
): Promise<PlannedStart> {
  const config = parts.env.config();
  const resumed = "resume" in opts.occupancy;
  const sessionId = "resume" in opts.occupancy ? opts.occupancy.resume : opts.occupancy.sessionId;
  let plan: LaunchPlan | null = null;
  let refused: unknown = null;
  try {
    await parts.env.booksWritable(); // a launch the seats' books could not record is refused
    plan = planLaunch({
      config,
      project: parts.project,
      cwd,
      occupancy: opts.occupancy,
      launch: opts.launch,
      gateway: parts.env.workspace.gateway?.launch(parts.slot, parts.project),
      forgeArgs: parts.env.tools?.launchArgs(),
    });
  } catch (err) {
    refused = err;
  }
  const transcript = plan ? await transcriptOf(plan, sessionId) : null;
  await parts.history.begin({ session_id: sessionId, cwd, transcript, resumed });
  const account = plan?.account?.display_name ??
    config.orgs.find((o) => o.name === parts.project.org)?.accounts[0] ?? null;
  return {
    sessionId,
    plan,
    refused,
    spawning: {
      project_name: parts.project.name,
      cwd,
      display_name: account ?? parts.project.name,
    },
  };
}
