import type { CommandName, Wire } from "../../../../protocol/mod.ts";
import { z } from "zod";
import { COMMANDS, HELD_KINDS, HELD_UPDATES, isCommandName } from "../../../../protocol/mod.ts";

/**
 * The asks a seat holds, as the dock draws them. spec: session > pending_asks ("every prompt the
 * seat is holding"); subscribe > answering. Permission and question asks are the CLI's own; every
 * other kind a subsystem parks crosses as `<kind>_pending` and ends with a `*_resolved` frame
 * naming its id, so a kind this page has never seen is still held, drawn from its `request`, and
 * answered through `respond_<kind>` when the protocol has that command.
 */
export interface Ask {
  kind: string;
  /** The ask's own id: the tool call's id for the CLI's asks, the parked ask's id otherwise. */
  id: string;
  /** A question ask's index within its tool call's batch. */
  questionIndex: number | null;
  request: Record<string, Wire>;
}

type Obj = Record<string, Wire>;
const obj = (v: Wire | undefined): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};

function askOf(kind: string, entry: Obj): Ask {
  let request = entry.request !== undefined ? obj(entry.request) : withoutKey(entry);
  // A Slack draft's update (slack_post_pending) nests its card under `draft`; the record does not.
  const draft = request.draft;
  if (
    kind === "slack_post" && typeof draft === "object" && draft !== null && !Array.isArray(draft)
  ) {
    request = draft;
  }
  const id = entry.tool_id ?? entry.id ?? request.id ?? "";
  return {
    kind,
    id: String(id),
    questionIndex: typeof request.question_index === "number" ? request.question_index : null,
    request,
  };
}

function withoutKey(fields: Obj): Obj {
  const { key: _key, ...rest } = fields;
  return rest;
}

/** One entry of the snapshot's `pending_asks` (protocol/session.ts PendingAsk). */
export interface PendingEntry {
  kind: string;
  tool_id?: string;
  id?: string;
  request: Obj;
}

/** The snapshot's `pending_asks`, oldest first. */
export function asksFromSnapshot(list: PendingEntry[]): Ask[] {
  return list.map((e) => {
    const entry: Obj = { request: e.request };
    if (e.tool_id !== undefined) entry.tool_id = e.tool_id;
    if (e.id !== undefined) entry.id = e.id;
    return askOf(e.kind, entry);
  });
}

/** Applies one update to the held asks; an update that is not about asks changes nothing. */
export function applyAskUpdate(asks: Ask[], update: { name: string; fields: Obj }): Ask[] {
  const f = update.fields;
  const name = update.name;
  if (name === "permission_request") return [...asks, askOf("permission", f)];
  if (name === "question_request") return [...asks, askOf("question", f)];
  if (name === "pending_interaction_resolved") {
    return asks.filter((a) =>
      !(a.id === f.tool_id &&
        (f.question_index === null || f.question_index === undefined ||
          a.questionIndex === f.question_index))
    );
  }
  if (name.endsWith("_pending")) {
    // A restamped card (spec: vault_ask_pending "merges the frame by id") replaces its old copy.
    const ask = askOf(name.slice(0, -"_pending".length), f);
    const at = asks.findIndex((a) => a.id === ask.id && a.kind === ask.kind);
    return at < 0 ? [...asks, ask] : asks.map((a, i) => i === at ? ask : a);
  }
  if (name.endsWith("_resolved") && f.id !== undefined) {
    return asks.filter((a) => a.id !== String(f.id));
  }
  return asks;
}

/**
 * What a held ask's ending says to the person, beside its card leaving the dock: the effect's
 * failure in forge's words (`failure`, set when an approved ask's effect did not land, so the
 * card leaving does not read as done), or an ask that `expired` or was `abandoned` before anyone
 * answered. Null for an ask answered, declined or cancelled, whose ending the person saw. spec:
 * session > pending_asks; Editing the config (the write resolves after its effect).
 */
export function resolvedNotice(
  update: { name: string; fields: Obj },
): { severity: string; text: string } | null {
  const kind = resolvedKind(update.name);
  if (kind === null) return null;
  const { failure, ending } = update.fields;
  if (typeof failure === "string" && failure !== "") {
    return { severity: "error", text: `${kind}: ${failure}` };
  }
  if (ending === "expired") {
    return { severity: "warning", text: `${kind}: it expired before anyone answered it` };
  }
  if (ending === "abandoned") {
    return {
      severity: "warning",
      text: `${kind}: it was abandoned before anyone answered it (its call ended)`,
    };
  }
  return null;
}

/** The held kind a `*_resolved` ends (a Slack draft's is `slack_draft_resolved`); a newer
 * forge's `<kind>_resolved` names its kind; the prompt's and the CLI's asks' are not held. */
function resolvedKind(name: string): string | null {
  const held = HELD_KINDS.find((k) => HELD_UPDATES[k].resolved === name);
  if (held) return held;
  if (name === "pending_interaction_resolved" || name === "prompt_cancel_resolved") return null;
  return name.endsWith("_resolved") ? name.slice(0, -"_resolved".length) : null;
}

/** How the dock answers an ask kind it has no drawing of its own for. */
export interface GenericAnswer {
  command: CommandName;
  /** The boolean field the answer sets (`approved`, `done`), drawn as a yes and a no. */
  field: string;
}

/**
 * `respond_<kind>` from the protocol's own command table, when its one answer field is a bool.
 * Null when the protocol has no such command or its answer is richer than a yes or a no.
 */
export function genericAnswer(kind: string): GenericAnswer | null {
  const name = `respond_${kind}`;
  if (!isCommandName(name)) return null;
  const schema: z.ZodType | null = COMMANDS[name].fields;
  if (!(schema instanceof z.ZodObject)) return null;
  const shape: Record<string, z.ZodType> = schema.shape;
  const fields = Object.keys(shape).filter((k) => k !== "key" && k !== "id");
  if (fields.length !== 1) return null;
  return shape[fields[0]] instanceof z.ZodBoolean ? { command: name, field: fields[0] } : null;
}
