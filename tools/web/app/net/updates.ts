import { z } from "zod";
import {
  AccountsChanged,
  AuthRequired,
  describeIssues,
  DictateModelsSnapshot,
  DictateOutcome,
  DictateOverrides,
  ForgeAccountIdentity,
  PLUGINS_UPDATES,
  ProcessSnapshot,
  Slot,
  VoiceAudio,
  VoiceModeState,
  type Wire,
  WorkerStatusChanged,
} from "../../../../protocol/mod.ts";

/**
 * The one place the page reads an update: the wire's externally tagged `{name: fields}` (or a unit
 * variant's bare name) checked against the schema of the fields this page draws. Everything past
 * here holds a typed update, never a cast. spec: How a message is tagged; the catalogue's update
 * table for the fields. When protocol/ carries an UPDATES table of its own, this table becomes a
 * re-export of it and nothing that imports `readUpdate` changes.
 */

const key = { key: Slot };
const keyed = <T extends z.ZodRawShape>(shape: T) => z.object({ ...key, ...shape }).loose();
/** A CLI stream-json frame: forwarded untouched, so only its being an object is checked. */
const CliFrameSchema = z.record(z.string(), z.json());

export const PAGE_UPDATES = {
  chat_appended: keyed({ msg: CliFrameSchema }),
  prompt_queued: keyed({ uuid: z.string(), source: z.string(), text: z.string() }),
  prompt_lifecycle: keyed({ uuid: z.string(), state: z.string() }),
  prompt_cancel_resolved: keyed({ uuid: z.string(), cancelled: z.boolean() }),
  turn_complete: keyed({}),
  turn_error: keyed({ message: z.string() }),
  turn_cancelled: keyed({}),
  context_usage_snapshot: keyed({
    percentage: z.number().nullable().optional(),
    max_tokens: z.number().nullable().optional(),
  }),
  processes_changed: keyed({ snapshot: ProcessSnapshot.nullable() }),
  terminal_changed: keyed({ terminal: z.record(z.string(), z.json()).nullable() }),
  background_tasks_changed: keyed({ tasks: z.array(z.record(z.string(), z.json())) }),
  notice: keyed({ severity: z.string(), text: z.string() }),
  connection_failed: keyed({ message: z.string(), fatal: z.boolean() }),
  auth_required: AuthRequired.loose(),
  forge_account_identity: ForgeAccountIdentity.loose(),
  accounts_changed: AccountsChanged.loose(),
  worker_status_changed: WorkerStatusChanged.loose(),
  dictate_started: keyed({ floor_db: z.number(), generation: z.number() }),
  dictate_level: keyed({ peak_db: z.number().nullable() }),
  dictate_transcribing: keyed({}),
  dictate_progress: keyed({
    generation: z.number(),
    done: z.number(),
    total: z.number().nullable(),
  }),
  dictate_ended: keyed({ outcome: DictateOutcome, generation: z.number() }),
  dictate_overrides: keyed({ overrides: DictateOverrides }),
  dictate_models_changed: z.object({ models: DictateModelsSnapshot }).loose(),
  voice_audio: VoiceAudio.loose(),
  voice_mode_state: VoiceModeState.loose(),
  ...PLUGINS_UPDATES,
} as const;

export type PageUpdateName = keyof typeof PAGE_UPDATES;
/** A typed update: one this page draws, with its fields as their schema says. */
export type PageUpdate = {
  [N in PageUpdateName]: { name: N; fields: z.infer<(typeof PAGE_UPDATES)[N]> };
}[PageUpdateName];
/** Any other update: its name, its seat when it names one, and its bag as plain JSON. */
export interface OtherUpdate {
  name: string;
  known: false;
  key: Slot | null;
  fields: Record<string, Wire>;
}

/** What `readUpdate` answers: typed, other, or off its schema (with forge's words for why). */
export type ReadUpdate =
  | (PageUpdate & { known: true; key: Slot | null })
  | OtherUpdate
  | { name: string; known: "invalid"; key: Slot | null; why: string };

const Bag = z.record(z.string(), z.json());
const Keyed = z.object({ key: Slot }).loose();

function isPageUpdate(name: string): name is PageUpdateName {
  return Object.hasOwn(PAGE_UPDATES, name);
}

/** Reads one wire update. Never throws: a malformed frame answers `known: "invalid"`. */
export function readUpdate(raw: Wire): ReadUpdate {
  if (typeof raw === "string") return { name: raw, known: false, key: null, fields: {} };
  const outer = Bag.safeParse(raw);
  const names = outer.success ? Object.keys(outer.data) : [];
  if (!outer.success || names.length !== 1) {
    return { name: "?", known: "invalid", key: null, why: "an update is one variant" };
  }
  const name = names[0];
  const bag = Bag.safeParse(outer.data[name]);
  if (!bag.success) {
    return { name, known: "invalid", key: null, why: `${name}: its fields are not an object` };
  }
  const slot = Keyed.safeParse(bag.data);
  const key = slot.success ? slot.data.key : null;
  if (!isPageUpdate(name)) return { name, known: false, key, fields: bag.data };
  const parsed = PAGE_UPDATES[name].safeParse(bag.data);
  if (!parsed.success) {
    return { name, known: "invalid", key, why: `${name}: ${describeIssues(parsed.error)}` };
  }
  return { name, fields: parsed.data, known: true, key } as ReadUpdate;
}

/** Whether `u` is a typed update of one of `names`: the narrowing the routers use. */
export function isNamed<N extends PageUpdateName>(
  u: ReadUpdate,
  ...names: N[]
): u is Extract<PageUpdate, { name: N }> & { known: true; key: Slot | null } {
  return u.known === true && names.some((n) => n === u.name);
}

/** The take's own updates. spec: dictate_stream ("every dictate_* update about it"). */
export const TAKE_UPDATES = [
  "dictate_started",
  "dictate_level",
  "dictate_transcribing",
  "dictate_progress",
  "dictate_ended",
] as const;

/** The plugins_* family the extensions page hears in full. */
export const PLUGIN_UPDATES = [
  "plugins_inventory_updated",
  "plugins_inventory_refresh_failed",
  "plugins_cli_action_succeeded",
  "plugins_cli_action_failed",
  "plugins_update_run_progress",
  "plugins_update_run_finished",
] as const satisfies readonly (keyof typeof PLUGINS_UPDATES)[];
