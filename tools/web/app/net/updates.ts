import { z } from "zod";
import {
  isUpdateName,
  parseIgnoringUnknownFields,
  type PluginsUpdateName,
  readUpdate as readWireUpdate,
  type SessionUpdate,
  Slot,
  type UpdateName,
  type UpdateRead,
  updateSlot,
  updateSpec,
  type Wire,
} from "../../../../protocol/mod.ts";

/**
 * The one place the page reads an update: the wire's externally tagged `{name: fields}` (or a unit
 * variant's bare name) read with protocol/'s own reader against its UPDATES table, so the page
 * holds no schema of its own for any update. Everything past here holds a typed update, never a
 * cast. spec: How a message is tagged.
 */

/** A typed update: protocol/'s SessionUpdate, with its seat and its bag as plain JSON beside it. */
export type KnownUpdate = SessionUpdate & {
  known: true;
  key: Slot | null;
  /** The fields as they crossed, for the readers that take any held ask's card as JSON. */
  bag: Record<string, Wire>;
};
/** An update protocol/ does not name (a newer forge's): its name, its seat, its bag as JSON. */
export interface OtherUpdate {
  name: string;
  known: false;
  key: Slot | null;
  bag: Record<string, Wire>;
}

/** What `readUpdate` answers: typed, other, or off its schema (with forge's words for why). */
export type ReadUpdate =
  | KnownUpdate
  | OtherUpdate
  | { name: string; known: "invalid"; key: Slot | null; why: string };
/** An update the page read: typed or a newer forge's, never one off its schema. */
export type HeardUpdate = Exclude<ReadUpdate, { known: "invalid" }>;

const Keyed = z.object({ key: Slot }).loose();

/**
 * Reads one wire update. Never throws: a malformed frame answers `known: "invalid"`. This is the
 * one walk an update gets (net/inbound.ts carves it out of its frame unwalked): its fields are
 * checked against their variant's schema, and the bag beside them is the same JSON, not a copy.
 */
export function readUpdate(raw: Wire): ReadUpdate {
  const shape = variant(raw);
  if (!shape) return { name: "?", known: "invalid", key: null, why: "an update is one variant" };
  const { name, bag } = shape;
  if (!isUpdateName(name)) return other(name, bag);
  const read = readLeniently(name, raw, bag);
  if (!read.ok) return { name, known: "invalid", key: null, why: read.why };
  return { ...read.update, known: true, key: updateSlot(read.update), bag };
}

/**
 * protocol/'s reader; a field this build does not know is set aside first, as the snapshots'
 * are (net/narrow.ts), because a newer forge adds fields and the spec calls them additive. The
 * second read runs only for a frame the first refused.
 */
function readLeniently(name: UpdateName, raw: Wire, bag: Record<string, Wire>): UpdateRead {
  const read = readWireUpdate(raw);
  const schema = updateSpec(name).fields;
  if (read.ok || schema === null || typeof raw === "string") return read;
  const known = parseIgnoringUnknownFields(schema, bag);
  return known.success && known.ignored.length > 0 ? readWireUpdate({ [name]: known.data }) : read;
}

/** The variant's name and its bag, read off the top of the value: nothing below it is walked. */
function variant(raw: Wire): { name: string; bag: Record<string, Wire> } | null {
  if (typeof raw === "string") return { name: raw, bag: {} };
  if (!isObject(raw)) return null;
  const names = Object.keys(raw);
  if (names.length !== 1) return null;
  const inner = raw[names[0]];
  return { name: names[0], bag: isObject(inner) ? inner : {} };
}

/** Whether a JSON value is an object (not an array, not null). */
export function isObject(value: Wire | undefined): value is Record<string, Wire> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A name protocol/ lacks is a newer forge's: kept as JSON, never refused (the dock draws any
 * held ask's card from its bag, net/asks.ts). */
function other(name: string, bag: Record<string, Wire>): OtherUpdate {
  const keyed = Keyed.safeParse(bag);
  return { name, known: false, key: keyed.success ? keyed.data.key : null, bag };
}

/** Whether `u` is a typed update of one of `names`: the narrowing the routers use. */
export function isNamed<N extends UpdateName>(
  u: ReadUpdate,
  ...names: N[]
): u is Extract<KnownUpdate, { name: N }> {
  return u.known === true && names.some((n) => n === u.name);
}

/** The take's own updates. spec: dictate_stream ("every dictate_* update about it"). */
export const TAKE_UPDATES = [
  "dictate_started",
  "dictate_level",
  "dictate_transcribing",
  "dictate_progress",
  "dictate_ended",
] as const satisfies readonly UpdateName[];

/** The plugins_* family the extensions page hears in full. */
export const PLUGIN_UPDATES = [
  "plugins_inventory_updated",
  "plugins_inventory_refresh_failed",
  "plugins_cli_action_succeeded",
  "plugins_cli_action_failed",
  "plugins_update_run_progress",
  "plugins_update_run_finished",
] as const satisfies readonly PluginsUpdateName[];
