import type { Logger } from "../log.ts";
import { isEngineError } from "../words.ts";
import { ioWords } from "../state/words.ts";

/** The boot's phases in order (main.ts's flags, then server.ts's), each as the operator reads it. */
export const BOOT_PHASES = {
  flags: "reading its command line",
  config: "reading its config and opening forge.log",
  state: "taking its state dir",
  listen: "binding the socket's port",
  workspace: "starting the workspace and the account gateway",
  subsystems: "starting the subsystems",
  socket: "opening the socket",
} as const;

export type BootPhase = keyof typeof BOOT_PHASES;

/**
 * A boot that failed, in forge's words: which phase and what was wrong. This sentence is what
 * main.ts shows the operator. An engine's or a library's message is never the headline: it is
 * logged as the cause (`boot_failed`), and `detail` carries it only when there was no log to take
 * it (the config phase failing before forge.log opened), so it is still shown, below.
 */
export class BootFailure extends Error {
  constructor(
    readonly phase: BootPhase,
    readonly why: string,
    readonly detail: string | null,
    options?: ErrorOptions,
  ) {
    super(
      `forge could not start while ${BOOT_PHASES[phase]} (the ${phase} phase): ${why}`,
      options,
    );
    this.name = "BootFailure";
  }
}

/**
 * Runs one phase of the boot; whatever it throws leaves as a BootFailure naming the phase. A
 * sentence forge wrote (a port taken, an invalid forge.toml) is the reason as it stands; an
 * engine's error is named by its errno where it has one (beside `place`, the path the phase works
 * on), else as an internal error, and its own message goes to `log` (or, with no log yet, to the
 * failure's `detail`).
 */
export async function inPhase<T>(
  phase: BootPhase,
  log: Logger | null,
  run: () => T | Promise<T>,
  place?: string,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof BootFailure) throw err;
    const engine = isEngineError(err);
    const why = !engine ? (err as Error).message : engineWords(err, log !== null, place);
    log?.error("boot_failed", { phase, error: err });
    const detail = engine && log === null ? String(err) : null;
    throw new BootFailure(phase, why, detail, { cause: err });
  }
}

/** An engine's error in the boot, in forge's words: its errno named, else an internal error. */
function engineWords(err: unknown, logged: boolean, place?: string): string {
  const code = (err as { code?: unknown })?.code;
  const io = typeof code === "string" || Object.values(Deno.errors).some((E) => err instanceof E);
  const cause = logged ? "; forge.log has its cause under boot_failed" : "";
  if (!io) return `an internal error stopped it${cause}`;
  return `${place ? `${place}: ` : ""}${ioWords(err)}${cause}`;
}

/**
 * What the operator is shown when the boot fails (main.ts, on stderr): the failure's sentence,
 * and the engine's words below it only when no log took them. Anything else that reached main is
 * said as an internal error, its own words below.
 */
export function bootFailureLines(err: unknown): string[] {
  if (err instanceof BootFailure) {
    return [err.message, ...(err.detail === null ? [] : [`  cause: ${err.detail}`])];
  }
  return ["forge could not start: an internal error stopped it", `  cause: ${String(err)}`];
}
