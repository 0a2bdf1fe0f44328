import { z } from "zod";
import type { SlackDraftEnding } from "./connectors.ts";
import { type AskEnding, HELD_UPDATES, type HeldCard, type HeldKind } from "./held.ts";
import { describeIssues } from "./issues.ts";
import type { Wire } from "./wire.ts";
import type { Slot } from "./slot.ts";
import type { Hearer, UpdateSpec } from "./update_spec.ts";
import { FLEET_UPDATES } from "./updates_fleet.ts";
import { SEAT_UPDATES } from "./updates_seat.ts";
import { SUBSYSTEM_UPDATES } from "./updates_subsystems.ts";
import type { PluginsUpdateName } from "./extensions.ts";
import { splitVariant } from "./variant.ts";

// spec: How a message is tagged. A SessionUpdate is externally tagged one level inside `update`:
// `{"chat_appended": {"key": ..., "msg": ...}}`; the unit variants cross as the bare name.

/**
 * Every update this server sends: its name, what it means, its fields' schema and who hears it
 * beyond its seat. The routing sets below, the typed emit path, the test clients' validation and
 * docs/protocol.md all read this one table. To add an update, add its row to its area's table
 * (updates_seat.ts, updates_fleet.ts, updates_subsystems.ts); docs/protocol.md says how.
 */
export const UPDATES = { ...SEAT_UPDATES, ...FLEET_UPDATES, ...SUBSYSTEM_UPDATES } as const;

export type UpdateName = keyof typeof UPDATES;
type FieldsSchema<N extends UpdateName> = (typeof UPDATES)[N]["fields"];
/** An update's field bag as its schema infers it; null for a unit variant. */
export type UpdateFields<N extends UpdateName> = FieldsSchema<N> extends infer S extends z.ZodType
  ? z.output<S>
  : null;
/** A plugins_* update's fields, as the update table types them (protocol/extensions.ts). */
export type PluginsUpdateFields<N extends PluginsUpdateName> = UpdateFields<N>;
/** A decoded update: its name and its fields, narrowed together by the name. */
export type SessionUpdate = { [N in UpdateName]: { name: N; fields: UpdateFields<N> } }[UpdateName];
/** One update variant. */
export type UpdateOf<N extends UpdateName> = Extract<SessionUpdate, { name: N }>;
/** The updates whose fields carry a seat's `key`. */
export type KeyedUpdateName = {
  [N in UpdateName]: UpdateFields<N> extends { key: Slot } ? N : never;
}[UpdateName];
/** A keyed update's fields without the `key` the seat adds. */
export type SeatFields<N extends KeyedUpdateName> = Omit<UpdateFields<N>, "key">;
/** A keyed update before its seat adds the key (a seat's state derives these from CLI frames). */
export type SeatUpdate = { [N in KeyedUpdateName]: { name: N; fields: SeatFields<N> } }[
  KeyedUpdateName
];
/** A seat's own emit: a keyed update's name and its fields, the seat adding its `key`. */
export type SeatEmit = <N extends KeyedUpdateName>(name: N, fields: SeatFields<N>) => void;

/** A name HELD_UPDATES gives a held kind's `*_pending` or `*_resolved`. */
type HeldUpdateName = (typeof HELD_UPDATES)[HeldKind]["pending" | "resolved"];
/**
 * Fails to compile unless every held update is a row of the table: held.ts sits below the table,
 * so the check is made here rather than by held.ts naming UpdateName.
 */
type _HeldUpdatesAreRows = Assert<HeldUpdateName extends UpdateName ? true : false>;
type Assert<T extends true> = T;

/** The update table's names. */
export const UPDATE_NAMES = Object.keys(UPDATES) as UpdateName[];

export function isUpdateName(name: string): name is UpdateName {
  return Object.hasOwn(UPDATES, name);
}

/** The table's row for a name, as the interface every row satisfies. */
export function updateSpec(name: UpdateName): UpdateSpec {
  return UPDATES[name];
}

/** Builds a typed update: a misspelt name or a wrong field is a compile error here. */
export function update<N extends UpdateName>(name: N, fields: UpdateFields<N>): UpdateOf<N> {
  return { name, fields } as unknown as UpdateOf<N>;
}

/** Builds a seat's own update: its fields with the seat's `key` beside them. */
export function seatUpdate<N extends KeyedUpdateName>(
  key: Slot,
  name: N,
  fields: SeatFields<N>,
): UpdateOf<N> {
  return { name, fields: { key, ...fields } } as unknown as UpdateOf<N>;
}

/** `seatUpdate` for an update already paired with its name (a SeatUpdate). */
export function keyedUpdate(key: Slot, u: SeatUpdate): SessionUpdate {
  return { name: u.name, fields: { key, ...u.fields } } as SessionUpdate;
}

/**
 * A held ask's `*_pending` update: `{key, ...card}`, a Slack draft as `{key, draft}`. The card
 * is the kind's request (protocol/held.ts HELD_REQUESTS), which the registry keeps per kind.
 */
export function heldPending(kind: HeldKind, key: Slot, card: HeldCard): SessionUpdate {
  const fields = kind === "slack_post" ? { key, draft: card } : { key, ...card };
  return { name: HELD_UPDATES[kind].pending, fields } as SessionUpdate;
}

/** A held ask's `*_resolved {key, id, ending, failure}` once its effect landed; a Slack
 * draft's ending in its own words (the original's SlackDraftEnding: `expired`, `abandoned` or
 * `{answered: {approved}}`). `failure` is the effect's words when it failed, else null. */
export function heldResolved(
  kind: HeldKind,
  key: Slot,
  id: string,
  ending: AskEnding,
  failure: string | null = null,
): SessionUpdate {
  if (kind !== "slack_post") {
    const fields = { key, id, ending, failure };
    return { name: HELD_UPDATES[kind].resolved, fields } as SessionUpdate;
  }
  // A draft withdrawn any other way (its call cancelled, the session ended) was abandoned.
  const said: SlackDraftEnding = ending === "answered" || ending === "declined"
    ? { answered: { approved: ending === "answered" } }
    : ending === "expired"
    ? "expired"
    : "abandoned";
  return update("slack_draft_resolved", { key, id, ending: said, failure });
}

const hearing = (who: Hearer): ReadonlySet<UpdateName> =>
  new Set(UPDATE_NAMES.filter((n) => updateSpec(n).hears?.includes(who)));

/** The unit variants, which cross as their bare name. */
export const UNIT_UPDATES: readonly UpdateName[] = UPDATE_NAMES.filter((n) =>
  updateSpec(n).fields === null
);
/**
 * The keyed variants home hears as fleet news (the original's rule). `chat_appended` is home news
 * only for a completing `result`, a session-state frame or a background-tasks frame
 * (`isFleetNews`).
 */
export const FLEET_NEWS = hearing("home");
/** The variants that move the board subject. spec: What a subject carries > board. */
export const BOARD_NEWS = hearing("board");
/** The dictate_models subject hears exactly these, as in the original. */
export const DICTATE_MODELS_NEWS = hearing("dictate_models");
/** The extensions subject hears the plugins_* family in full. spec: extensions. */
export const EXTENSIONS_NEWS = hearing("extensions");
/** The updates that go to the connection that started them alone (a take's news). */
export const OWN_NEWS: ReadonlySet<UpdateName> = new Set(
  UPDATE_NAMES.filter((n) => updateSpec(n).own === true),
);

/** The wire form: `"name"` for a unit variant, else `{name: fields}`. */
export function encodeUpdate(u: SessionUpdate): Wire {
  return u.fields === null ? u.name : { [u.name]: u.fields };
}

/** What `readUpdate` answers: the update, or the sentence naming what was wrong. */
export type UpdateRead = { ok: true; update: SessionUpdate } | { ok: false; why: string };

/**
 * Reads one wire update against its schema: a client narrows what it gets by `update.name`.
 * Refuses, in words, a shape that is not one variant, a name the table does not hold, and fields
 * off the variant's schema (an unknown field included: the tables are closed).
 */
export function readUpdate(raw: unknown): UpdateRead {
  const variant = splitVariant(raw);
  if (!variant) {
    return { ok: false, why: 'an update is one variant: its name, or {"<name>": {fields}}' };
  }
  const { name, bag } = variant;
  if (!isUpdateName(name)) return { ok: false, why: `unknown update \`${name}\`` };
  const schema = updateSpec(name).fields;
  if (schema === null) {
    return typeof raw === "string"
      ? { ok: true, update: { name, fields: null } as SessionUpdate }
      : { ok: false, why: `\`${name}\` is a unit variant: it crosses as its name alone` };
  }
  // reportInput: a refusal says what the wrong value was (its kind; issues.ts never echoes it).
  const parsed = schema.safeParse(bag, { reportInput: true });
  if (!parsed.success) return { ok: false, why: `${name}: ${describeIssues(parsed.error)}` };
  return { ok: true, update: { name, fields: parsed.data } as SessionUpdate };
}

/**
 * One update as a frame carries it (`update`, and each row of `seat_frames`): JSON that reads as
 * one variant of the update table, refused in `readUpdate`'s words. It stays the wire form once
 * read, so a client that wants the variant decodes it (`readUpdate`, `decodeUpdate`).
 * spec: What a client receives > update, seat_frames.
 */
export const WireUpdate = z.json().superRefine((raw, ctx) => {
  const read = readUpdate(raw);
  if (!read.ok) ctx.addIssue({ code: "custom", message: read.why, input: raw });
}).describe('one update: `"<name>"` for a unit variant, else `{"<name>": {fields}}`');

/** The fields of `u` when it is the variant `name`, else null: narrowing in one call. */
export function fieldsOf<N extends UpdateName>(u: SessionUpdate, name: N): UpdateFields<N> | null {
  return u.name === name ? (u.fields as UpdateFields<N>) : null;
}

/** `readUpdate`, throwing its sentence: for a client that treats drift as a bug. */
export function decodeUpdate(raw: unknown): SessionUpdate {
  const read = readUpdate(raw);
  if (!read.ok) throw new Error(read.why);
  return read.update;
}

/** The seat an update belongs to, or null for a keyless (app-level) update. */
export function updateSlot(u: SessionUpdate): Slot | null {
  return u.fields !== null && "key" in u.fields ? u.fields.key : null;
}

/** Whether a keyed update is something a home row draws. spec: What a client receives > update. */
export function isFleetNews(u: SessionUpdate): boolean {
  if (FLEET_NEWS.has(u.name)) return true;
  if (u.name !== "chat_appended") return false;
  const msg = u.fields.msg;
  if (msg.type === "result") return msg.subtype === "success";
  return msg.type === "system" &&
    (msg.subtype === "session_state_changed" || msg.subtype === "background_tasks_changed");
}

export function isBoardNews(u: SessionUpdate): boolean {
  return BOARD_NEWS.has(u.name);
}

export function isDictateModelsNews(u: SessionUpdate): boolean {
  return DICTATE_MODELS_NEWS.has(u.name);
}

export function isExtensionsNews(u: SessionUpdate): boolean {
  return EXTENSIONS_NEWS.has(u.name);
}

/** A CLI stream-json frame as the CLI wrote it: forwarded untouched, never reshaped. */
export type CliFrame = UpdateFields<"chat_appended">["msg"];
