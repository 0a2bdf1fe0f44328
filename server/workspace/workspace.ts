import type {
  AgentRow,
  SessionPart,
  SessionUpdate,
  Slot,
  UpdateFields,
} from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import type { Gateway } from "../gateway/gateway.ts";
import type { Logger } from "../log.ts";
import { type Audience, type NumberedUpdate, UpdateStream } from "./stream.ts";

/** What kind of failure home's `fatal_error` holds: one source each. */
export type FatalKind = UpdateFields<"fatal_error">["error"];

/** The label of a project's lead seat, the original's. */
export const LEAD_LABEL = "lead";

/** What every seat exposes to the rest of the server, whatever drives it. */
export interface SeatInfo {
  slot: Slot;
  project: ProjectConfig;
  cwd: string;
  /** The occupant's session id, or null when nothing occupies the seat. */
  sessionId(): string | null;
  /** The seat's home `agents` row; absent for a seat nothing drives yet. */
  homeRow?(): AgentRow | Promise<AgentRow>;
  /**
   * The selectable tool families a worker was given (`mcp_families`); null or
   * absent = every family. The always-on families are not listed here.
   */
  toolFamilies?(): readonly string[] | null;
  /** The seat's own session snapshot fields (header, state, conversation...). */
  sessionFields?(): SessionPart | Promise<SessionPart>;
}

/**
 * The stateful core every subsystem reads through the Host: the projects the config declares,
 * the seats, the unseen marks and the update stream. Seats are registered by the session driver.
 */
export class Workspace {
  /** This server run's identity, minted once per process. spec: home > boot_id. */
  readonly bootId = crypto.randomUUID();
  readonly stream = new UpdateStream();
  readonly #seats = new Map<string, SeatInfo>();
  readonly #unseen = new Map<string, Slot>();
  readonly #removed = new Set<(slot: Slot) => void>();
  /** home's `fatal_error` now: the newest of the sources still set (`setFatal`). */
  fatalError: UpdateFields<"fatal_error"> | null = null;
  readonly #fatal = new Map<FatalKind, string>();
  /** Runs when the last fatal source clears: no update carries a cleared fatal error, so the
   * server sends every home holder a fresh snapshot. */
  fatalCleared: () => void = () => {};
  /** The account gateway seats launch through (server/gateway/); null until the server sets it. */
  gateway: Gateway | null = null;
  /**
   * The schedule a fired prompt came from, by the prompt's uuid; the board area fills it (the
   * cron tick mints and records each fire's uuid). spec: page > cron_names.
   */
  firedPromptName: (uuid: string) => string | undefined = () => undefined;

  constructor(readonly log: Logger, private readonly config: () => ForgeConfig) {
    this.stream.onListenerError = (error, n) =>
      log.error("stream_listener_failed", { update: n.update.name, error });
  }

  projects(): ProjectConfig[] {
    return this.config().orgs.flatMap((o) => o.projects);
  }

  project(org: string, name: string): ProjectConfig | undefined {
    return this.projects().find((p) => p.org === org && p.name === name);
  }

  /** A seat the workspace holds, or a declared project's lead (which is answered with empty fields). */
  seat(slot: Slot): SeatInfo | undefined {
    const held = this.#seats.get(slotName(slot));
    if (held) return held;
    const project = slot.label === LEAD_LABEL ? this.project(slot.org, slot.project) : undefined;
    return project ? { slot, project, cwd: project.path, sessionId: () => null } : undefined;
  }

  seats(): SeatInfo[] {
    return [...this.#seats.values()];
  }

  registerSeat(seat: SeatInfo): void {
    this.#seats.set(slotName(seat.slot), seat);
  }

  removeSeat(slot: Slot): void {
    if (!this.#seats.delete(slotName(slot))) return;
    for (const fn of this.#removed) {
      try {
        fn(slot);
      } catch (error) {
        this.log.error("seat_removed_listener_failed", { seat: slotName(slot), error });
      }
    }
  }

  /**
   * Runs `fn` after a seat leaves the workspace (a worker despawned, a closed worker forgotten);
   * returns the call that stops it. A throwing `fn` is logged and the rest still run.
   */
  onSeatRemoved(fn: (slot: Slot) => void): () => void {
    this.#removed.add(fn);
    return () => this.#removed.delete(fn);
  }

  emit(update: SessionUpdate, only: Audience = null): NumberedUpdate {
    return this.stream.emit(update, only);
  }

  /**
   * Sets one source of home's `fatal_error` (`config_invalid`, `subsystem_failed`,
   * `state_damaged`), or clears it with null. spec: What a subject carries > home. A set is
   * pushed as the keyless `fatal_error` update; a clear falls back to the newest source still
   * set (pushed the same way) or, with none left, to `fatalCleared`.
   */
  setFatal(error: FatalKind, message: string | null): void {
    const had = this.#fatal.get(error);
    if (message === null ? had === undefined : had === message) return;
    this.#fatal.delete(error);
    if (message !== null) this.#fatal.set(error, message);
    const newest = [...this.#fatal].at(-1);
    this.fatalError = newest ? { error: newest[0], message: newest[1] } : null;
    if (this.fatalError) this.emit({ name: "fatal_error", fields: this.fatalError });
    else this.fatalCleared();
  }

  /** spec: home > unseen: seats whose last turn finished while nobody was showing them. */
  unseen(): Slot[] {
    return [...this.#unseen.values()];
  }

  markUnseen(slot: Slot): void {
    this.#unseen.set(slotName(slot), slot);
  }

  /** Spends a seat's unseen mark; true when there was one to spend. spec: showing. */
  spendUnseen(slot: Slot): boolean {
    return this.#unseen.delete(slotName(slot));
  }
}

/**
 * The one sentence for a slot `Workspace.seat` does not know, said the same by every verb that
 * addresses a seat (a verb's error heads it with the verb's name). A seat is a declared project's
 * lead or a seat a session holds (a worker): the slot is neither.
 */
export function notASeat(slot: Slot): string {
  return `${slotName(slot)} is not a seat: no project declares it and no session holds it`;
}
