import type { DictateOutcome } from "./dictate.ts";
import type { Slot } from "./slot.ts";
import type { SessionUpdate } from "./update.ts";

// A dictation take's own updates (spec: the take's updates): dictate_started, dictate_level,
// dictate_transcribing, dictate_progress and dictate_ended. They are typed by the update table,
// which sits above dictate.ts, so they are built here, above both.

/** The take's own updates, built in one place so their field names never drift. */
export const takeUpdate = {
  started: (key: Slot, floor_db: number, generation: number): SessionUpdate => ({
    name: "dictate_started",
    fields: { key, floor_db, generation },
  }),
  level: (key: Slot, peak_db: number | null): SessionUpdate => ({
    name: "dictate_level",
    fields: { key, peak_db },
  }),
  transcribing: (key: Slot): SessionUpdate => ({ name: "dictate_transcribing", fields: { key } }),
  progress: (key: Slot, generation: number, done: number, total: number | null): SessionUpdate => ({
    name: "dictate_progress",
    fields: { key, generation, done, total },
  }),
  ended: (key: Slot, outcome: DictateOutcome, generation: number): SessionUpdate => ({
    name: "dictate_ended",
    fields: { key, outcome, generation },
  }),
};
