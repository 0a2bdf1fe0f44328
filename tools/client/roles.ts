import { type ClientMessage, type Slot, slotName } from "../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../server/clock.ts";
import type { Attachment, Reattachment } from "./attachments.ts";

/** A role a connection held on a viewer it re-attached: the person's control, or a pause. */
export interface Role {
  role: "terminal_control" | "terminal_pause" | "browser_control";
  /** The seat whose terminal or browser tab the viewer shows. */
  seat: Slot;
}

/** What a reconnect made of the roles held at the drop (terminal first). */
export interface Regain {
  /** Held again on the new socket. */
  regained: Role[];
  /** Not held again, and why: someone else holds control now, or the viewer was not attached. */
  lost: { role: Role; why: string }[];
}

type Surface = "terminal" | "browser";
/** The viewer this socket was last told it is, and who holds control (a view frame's). */
interface Viewing {
  viewer: number;
  controller: number | null;
  /** A terminal's id: the one a take names. */
  id?: number;
}

/** One surface's roles being asked for again, waiting on its new view frame, then on a take. */
interface Step {
  surface: Surface;
  seat: Slot;
  control: boolean;
  pause: boolean;
  taking: boolean;
}

/**
 * How long a restore waits for a re-attached viewer's first view frame (and a take's answer)
 * before the roles still owed are said lost: `ReconnectOptions.viewMs`'s default.
 */
export const VIEW_MS = 10_000;

/** The clock a restore's bound runs on, and the bound. */
export interface ViewBound {
  clock: Clock;
  ms: number;
}

const ROLE: Record<Surface, Role["role"]> = {
  terminal: "terminal_control",
  browser: "browser_control",
};

/**
 * The roles a connection holds on what it views: the person's control of its terminal and of its
 * browser tab, read from the view and control frames forge sends (a frame naming this viewer as
 * controller), and a terminal_pause in force, read from what goes out. Both die with the socket
 * (spec: terminal_control: "dropping the connection releases it"; browser_view: "A connection
 * that goes is detached with it"), so once a reconnect re-attached a viewer, its roles are asked
 * for again: control only when nobody took it meanwhile (a take always lands, and would take it
 * from whoever did: spec: terminal_control, browser_control), the pause once the new screen came
 * (a paused viewer is sent none). spec: terminal_control, terminal_pause, browser_control.
 */
export class Roles {
  #seen: Record<Surface, Viewing | null> = { terminal: null, browser: null };
  /** Control held at the drop (or still to regain from the one before). */
  #want: Record<Surface, boolean> = { terminal: false, browser: false };
  #paused = false;
  #restoring:
    | { steps: Step[]; send: (m: ClientMessage) => void; done: (r: Regain) => void } & Regain
    | null = null;
  /** The restore's bound, armed while a step waits on forge. */
  #timer: unknown = null;

  constructor(private readonly bound: ViewBound = { clock: MONOTONIC, ms: VIEW_MS }) {}

  /** Whether this connection holds control of the `surface` it views. */
  holds(surface: Surface): boolean {
    const s = this.#seen[surface];
    return s !== null && s.controller === s.viewer;
  }

  /** Notes a message the caller sent: an attach starts a viewer unpaused; a detach ends all. */
  sent(message: unknown): void {
    const m = (message ?? {}) as { kind?: unknown; paused?: unknown };
    if (m.kind === "terminal_view") this.#paused = false;
    else if (m.kind === "terminal_pause" && typeof m.paused === "boolean") {
      this.#paused = m.paused;
      // The caller's own word supersedes a pause a restore still owes (it is no longer said).
      for (const step of this.#restoring?.steps ?? []) step.pause = false;
      this.#advance();
    } else if (m.kind === "terminal_detach") {
      this.#paused = this.#want.terminal = false;
      this.#seen.terminal = null;
    } else if (m.kind === "browser_detach") {
      this.#want.browser = false;
      this.#seen.browser = null;
    }
  }

  /** A frame in: who this viewer is and who holds control, and a refused take. */
  heard(m: Record<string, unknown>): void {
    const num = (v: unknown) => typeof v === "number" ? v : null;
    if (m.kind === "terminal_view" || m.kind === "browser_view") {
      const surface = m.kind === "terminal_view" ? "terminal" : "browser";
      const viewer = num(m.viewer);
      const id = num(m.id) ?? undefined;
      this.#seen[surface] = viewer === null ? null : { viewer, controller: num(m.controller), id };
    } else if (m.kind === "terminal_control") {
      const t = this.#seen.terminal;
      if (t && t.id === m.id) t.controller = num(m.controller);
    } else if (
      m.kind === "error" && (m.what === "terminal_control" || m.what === "browser_control")
    ) {
      const step = this.#restoring?.steps.find((s) => s.taking && ROLE[s.surface] === m.what);
      if (step) this.#lose(step, typeof m.why === "string" ? m.why : "");
    }
    this.#advance();
  }

  /** The socket dropped: control held now is wanted again (with any not yet regained). */
  dropped(): void {
    const again = this.#restoring !== null;
    for (const surface of ["terminal", "browser"] as const) {
      this.#want[surface] = this.holds(surface) || (again && this.#want[surface]);
      this.#seen[surface] = null;
    }
    this.#restoring = null;
    this.#disarm();
  }

  /**
   * Asks again for the roles held at the drop on the viewers `views` says were re-attached,
   * sending with `send`; `done` hears what came of each once all settled (at once when none was
   * held). A role whose viewer was not re-attached is lost with its attach's words.
   */
  restore(views: Reattachment, send: (m: ClientMessage) => void, done: (r: Regain) => void): void {
    const r = this.#restoring = {
      steps: [] as Step[],
      send,
      done,
      regained: [] as Role[],
      lost: [] as Regain["lost"],
    };
    const surfaceOf = (a: Attachment): Surface =>
      a.kind === "terminal_view" ? "terminal" : "browser";
    for (const a of views.reattached) {
      const surface = surfaceOf(a);
      const pause = surface === "terminal" && this.#paused;
      if (this.#want[surface] || pause) {
        r.steps.push({ surface, seat: a.seat, control: this.#want[surface], pause, taking: false });
      }
    }
    for (const { attachment: a, why } of views.unattached) {
      const surface = surfaceOf(a);
      const roles = [
        ...this.#want[surface] ? [ROLE[surface]] : [],
        ...surface === "terminal" && this.#paused ? ["terminal_pause" as const] : [],
      ];
      for (const role of roles) {
        r.lost.push({ role: { role, seat: a.seat }, why: `not attached again: ${why}` });
      }
      this.#want[surface] = false;
      if (surface === "terminal") this.#paused = false;
    }
    // A surface viewing nothing now (a refused attach let its tab go) holds no role to regain.
    for (const surface of ["terminal", "browser"] as const) {
      if (!r.steps.some((s) => s.surface === surface)) this.#want[surface] = false;
    }
    // A viewer's first frame is not answered in order with anything the client can ask: a
    // terminal's waits for its screen model to catch up (and never comes when the terminal closes
    // first, or a pause sent meanwhile holds it), so `reconnected` would wait for the next drop.
    // The reply said the viewer is back; what is still owed when the bound runs out is lost.
    if (r.steps.length > 0) {
      this.#timer = this.bound.clock.set(() => this.#expired(), this.bound.ms);
    }
    this.#advance();
  }

  /** Moves each step on as far as the frames heard allow; says `done` once none is left. */
  #advance(): void {
    const r = this.#restoring;
    if (!r) return;
    for (const step of [...r.steps]) {
      if (!step.control && !step.pause) {
        r.steps.splice(r.steps.indexOf(step), 1);
        continue;
      }
      const seen = this.#seen[step.surface];
      if (!seen) continue; // its new view frame has not come yet
      if (step.control && !step.taking) {
        if (seen.controller !== null && seen.controller !== seen.viewer) {
          this.#lose(
            step,
            `viewer ${seen.controller} took control of ${what(step, seen)} meanwhile`,
          );
        } else {
          step.taking = true;
          r.send(
            step.surface === "terminal"
              ? { kind: "terminal_control", seat: step.seat, id: seen.id!, take: true }
              : { kind: "browser_control", take: true },
          );
        }
      }
      if (step.pause) {
        step.pause = false;
        r.send({ kind: "terminal_pause", paused: true });
        r.regained.push({ role: "terminal_pause", seat: step.seat });
      }
      if (step.taking && seen.controller === seen.viewer) {
        r.regained.push({ role: ROLE[step.surface], seat: step.seat });
        step.control = step.taking = false;
      }
      if (!step.control) r.steps.splice(r.steps.indexOf(step), 1);
    }
    if (r.steps.length === 0) {
      this.#restoring = null;
      this.#disarm();
      r.done({ regained: r.regained, lost: r.lost });
    }
  }

  /** The bound ran out: every role still owed is lost, said in words, and the restore ends. */
  #expired(): void {
    this.#timer = null;
    const r = this.#restoring;
    if (!r) return;
    const secs = `${this.bound.ms / 1000} s`;
    for (const step of r.steps) {
      const seat = slotName(step.seat);
      const viewer = step.surface === "terminal"
        ? `${seat}'s terminal`
        : `the browser tab of ${seat}`;
      const why = step.taking
        ? `forge did not answer the take of control of ${viewer} within ${secs}`
        : `no ${step.surface}_view frame came for ${viewer} within ${secs} of its re-attach`;
      if (step.control) this.#lose(step, why);
      if (step.pause) {
        r.lost.push({ role: { role: "terminal_pause", seat: step.seat }, why });
        this.#paused = step.pause = false;
      }
    }
    r.steps.length = 0;
    this.#advance();
  }

  #disarm(): void {
    if (this.#timer !== null) this.bound.clock.clear(this.#timer);
    this.#timer = null;
  }

  /** `step`'s control is not regained: said with `why`, and no longer wanted. */
  #lose(step: Step, why: string): void {
    this.#restoring!.lost.push({ role: { role: ROLE[step.surface], seat: step.seat }, why });
    this.#want[step.surface] = false;
    step.control = step.taking = false;
  }
}

/** The surface a step names, in words. */
function what(step: Step, seen: Viewing): string {
  const seat = slotName(step.seat);
  return step.surface === "terminal"
    ? `terminal ${seen.id} of ${seat}`
    : `the browser tab of ${seat}`;
}
