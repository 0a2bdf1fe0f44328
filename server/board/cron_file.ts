import { z } from "zod";
import { CronEntry } from "../../protocol/mod.ts";
import { schemaParse } from "../state/keeper.ts";

/** `state/board/cron.json`: every project's schedules. */
export const CronFile = z.object({ version: z.literal(1), crons: z.array(CronEntry) }).strict();
export type CronFile = z.infer<typeof CronFile>;

/** A fire's prompt: `due` is the occurrence it fired for, so a restart knows it was begun. */
export const Fired = z.object({
  uuid: z.string(),
  cron_id: z.string(),
  name: z.string(),
  due: z.string().optional(),
}).strict();
export type Fired = z.infer<typeof Fired>;

/** `state/board/cron_fired.json`: the schedule each fired prompt came from. */
export const FiredFile = z.object({ version: z.literal(1), fired: z.array(Fired) }).strict();
export type FiredFile = z.infer<typeof FiredFile>;

/** The keeper's parse of the schedules' file. */
export const parseCronFile = schemaParse(CronFile, "a schedule list");

/** The keeper's parse of the fired prompts' file. */
export const parseFiredFile = schemaParse(FiredFile, "a list of fired prompts");
