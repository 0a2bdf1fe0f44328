import type { Logger } from "../log.ts";

/** One thing a failed boot undoes: its name for the log, and how it is stopped. */
export type UndoStep = [what: string, undo: () => unknown];

/**
 * Runs a failed boot's undo steps in the order given (the caller lists them newest first), each
 * to its end whatever the one before it did: a step that throws is logged as `boot_unwind_failed`
 * and the rest still run, so one stuck part cannot leave the others (a seat's CLI) running.
 */
export async function unwindBoot(log: Logger, steps: readonly UndoStep[]): Promise<void> {
  for (const [what, undo] of steps) {
    try {
      await undo();
    } catch (error) {
      log.error("boot_unwind_failed", { step: what, error });
    }
  }
}
