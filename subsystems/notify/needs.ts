import type { NotifyKind, SessionUpdate, Slot } from "../../protocol/mod.ts";
import { HELD_UPDATES, type HeldKind, updateSlot } from "../../protocol/mod.ts";
import {
  diedLine,
  failedLine,
  finishedLine,
  heldLine,
  permissionLine,
  questionLine,
} from "./lines.ts";
import type { Need } from "./push.ts";

/** What one update means for a seat's person: a new need, or one that no longer waits. */
export type NeedChange =
  | { type: "need"; slot: Slot; need: Need }
  | { type: "gone"; slot: Slot; id: string };

type Fields = Record<string, unknown>;

/**
 * A held ask's updates back to its kind: `<kind>_pending` parks one and `<kind>_resolved` ends
 * it, but for the Slack draft, which `slack_draft_resolved` ends (spec: session > pending_asks).
 * Read from the table the seats emit by (protocol/held.ts HELD_UPDATES).
 */
export const HELD_BY_UPDATE = new Map<string, { kind: HeldKind; pending: boolean }>(
  (Object.entries(HELD_UPDATES) as [HeldKind, { pending: string; resolved: string }][]).flatMap((
    [kind, wire],
  ) => [[wire.pending, { kind, pending: true }], [wire.resolved, { kind, pending: false }]]),
);

/**
 * Reads the update stream for the moments a seat needs its person (docs/notify.md "When"): a
 * parked ask (permission, question, every held kind) and its end, a failed turn, a session that
 * died, a sign-in the account needs, and a long turn's result. Pure but for the turn clocks.
 */
export class NeedReader {
  /** When each seat's current turn started (ms), for a result that names no duration. */
  readonly #turnStart = new Map<string, number>();
  #events = 0;

  constructor(
    private readonly now: () => number,
    private readonly finishedAfterMs: () => number,
  ) {}

  read(update: SessionUpdate): NeedChange[] {
    const slot = updateSlot(update);
    if (slot === null) return [];
    const f = (update.fields ?? {}) as Fields;
    const need = (kind: NotifyKind, id: string, line: string): NeedChange[] => [
      { type: "need", slot, need: { kind, id, line } },
    ];
    const held = HELD_BY_UPDATE.get(update.name);
    if (held) {
      const id = `held:${String(f.id ?? obj(f.draft).id)}`;
      return held.pending ? need("ask", id, heldLine(held.kind, f)) : [{ type: "gone", slot, id }];
    }
    switch (update.name) {
      case "permission_request":
        return need("ask", `ask:${String(f.tool_id)}`, permissionLine(obj(f.request)));
      case "question_request": {
        const request = obj(f.request);
        return need(
          "ask",
          `ask:${String(f.tool_id)}:${request.question_index}`,
          questionLine(request),
        );
      }
      case "pending_interaction_resolved": {
        const index = f.question_index;
        const id = typeof index === "number"
          ? `ask:${String(f.tool_id)}:${index}`
          : `ask:${String(f.tool_id)}`;
        return [{ type: "gone", slot, id }];
      }
      case "turn_error":
        return need("failed", this.#event("failed"), failedLine(String(f.message ?? "")));
      case "connection_failed":
        return need("failed", this.#event("died"), diedLine(String(f.message ?? "")));
      case "auth_required":
        return need(
          "auth",
          `auth:${String(f.method_name)}`,
          `the account ${String(f.method_name)} needs a sign-in`,
        );
      case "prompt_lifecycle":
        if (f.state === "started") this.#turnStart.set(key(slot), this.now());
        return [];
      case "chat_appended":
        return this.#result(slot, obj(f.msg));
    }
    return [];
  }

  /** A successful result of a turn that ran at least `finished_after_secs`. */
  #result(slot: Slot, msg: Fields): NeedChange[] {
    if (msg.type !== "result") return [];
    const started = this.#turnStart.get(key(slot));
    this.#turnStart.delete(key(slot));
    if (msg.subtype !== "success" || msg.is_error === true) return [];
    // The CLI's own measure of the turn when it gives one; else forge's clock since it started.
    const ran = typeof msg.duration_ms === "number"
      ? msg.duration_ms
      : started !== undefined
      ? this.now() - started
      : null;
    if (ran === null || ran < this.finishedAfterMs()) return [];
    return [{
      type: "need",
      slot,
      need: { kind: "finished", id: this.#event("finished"), line: finishedLine(ran) },
    }];
  }

  #event(what: string): string {
    return `${what}:${++this.#events}`;
  }
}

const key = (s: Slot) => `${s.org}/${s.project}/${s.label}`;
const obj = (v: unknown): Fields =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as Fields : {};
