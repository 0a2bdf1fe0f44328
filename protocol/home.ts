import { z } from "zod";
import { AccountsWire, Chip } from "./accounts.ts";
import { FleetRow } from "./board.ts";
import { ConnectorsHome } from "./connectors.ts";
import { DictateDeviceChoice } from "./dictate.ts";
import { PreflightState } from "./dictate_models.ts";
import { Slot } from "./slot.ts";
import { HomeNotify } from "./notify.ts";
import { HomeBiometric, HomeVault } from "./vault.ts";
import { WireTime } from "./wire_time.ts";

// The instant pair lives in its own module (dictate_models reads it too, and home reads theirs).
export { WireTime, wireTime, wireTimeMs } from "./wire_time.ts";

/**
 * The home subject's snapshot: the one schema its golden test validates (tests/golden_test.ts).
 * spec: What a subject carries > home. Where the spec names a field but not its shape the
 * original's wire is followed (its HomeWire), and each deliberate difference is argued
 * beside its field.
 */

/** What git said about a row's tree. */
export const WorkState = z.object({
  branch: z.string().nullable(),
  changed: z.number().int().nullable(),
  gate: z.enum(["in_repo", "not_a_repository", "gone", "scanner_failed"]),
}).strict();
export type WorkState = z.infer<typeof WorkState>;

/** One transcript of the project's catalog: the original carries the project's
 * transcripts here, not its seats; a client reads `last_activity` to tell a project nothing ever
 * ran in from one whose session has gone. `cwd` is the folder the CLI filed it under. */
export const CatalogRow = z.object({
  session_id: z.string(),
  last_activity: WireTime,
  cwd: z.string(),
}).strict();
export type CatalogRow = z.infer<typeof CatalogRow>;

/** One earlier conversation as the CLI's resume picker names it: list_sessions' reply (forge's
 * extension), in the original's SessionListEntry fields. The catalog row above says which and
 * when; this says what to call it, which home does not carry (a name a row is ~60 bytes more on
 * every home read, for a list a person opens now and then). */
export const SessionListEntry = z.object({
  session_id: z.string(),
  summary: z.string().describe(
    "what to call it: custom_title, else the title or summary the CLI wrote, else first_prompt; " +
      '"" when the transcript holds none',
  ),
  last_modified_ms: z.number().describe("the transcript's last write, epoch ms"),
  cwd: z.string().describe("the folder the CLI filed it under"),
  custom_title: z.string().nullable().describe("the title the person set with /rename"),
  first_prompt: z.string().nullable().describe("the session's first prompt, cut to 200 chars"),
}).strict();
export type SessionListEntry = z.infer<typeof SessionListEntry>;

export const ListSessionsReply = z.object({ sessions: z.array(SessionListEntry) }).strict();
export type ListSessionsReply = z.infer<typeof ListSessionsReply>;

export const HomeProject = z.object({
  project: z.object({
    key: z.string(),
    name: z.string(),
    org: z.string(),
    path: z.string(),
    display_path: z.string(),
    /** The org's accounts and fallbacks, which a project's seats bind from. */
    accounts: z.array(z.string()),
    fallback_accounts: z.array(z.string()),
    has_model: z.boolean(),
    /** Newest first, at most 50 (server/areas/project_catalog.ts). */
    sessions: z.array(CatalogRow),
  }).strict(),
  work: WorkState,
  would_bind: z.boolean(),
  chip: Chip.nullable(),
  // Not here: the original's `tasks`, `crons` and `connectors` - the spec moved them to the board
  // subject (What a subject carries > home > projects), and the spec wins over the original where
  // it moved a field.
}).strict();
export type HomeProject = z.infer<typeof HomeProject>;

/** The lifecycles a row names, PascalCase as the original's enum serialises. */
export const Lifecycle = z.enum([
  "Sleeping",
  "Spawning",
  "Idle",
  "Running",
  "Attention",
  "AuthRequired",
  "Failed",
  "LoggedOut",
]);

/**
 * One seat's row. `pending_depth` is v29's "how many wait behind it" (the asks behind the front),
 * and `pending_seq` the front ask's sequence (v29 adds it). `failed_turn` is when the seat's last
 * turn ended in a turn_error (cleared by a completed turn), which the failure mark draws.
 *
 * A declared project whose lead nobody started answers with a `Sleeping` lead row here, where
 * the original sends none (its project row is the Start). Decided by the spec's home table:
 * `agents` is "every seat's row", and a declared lead IS a seat - the session subject answers for
 * it ("a seat nobody has started is an answer rather than a silence"), and a released lead goes
 * back to Sleeping with its row kept. One rule for both keeps a lead's row from vanishing and
 * reappearing as it is started and released; an older client reads a lifecycle it knows.
 */
export const AgentRow = z.object({
  slot: Slot,
  label: z.string(),
  lifecycle: Lifecycle,
  has_background_work: z.boolean(),
  pending: z.string().nullable(),
  pending_depth: z.number().int(),
  pending_seq: z.number().int().nullable(),
  last_activity: WireTime.nullable(),
  reason: z.string().nullable(),
  failed_turn: WireTime.nullable(),
  /** v29: the seat's own directory, home-shortened, only when it differs from its project's. */
  tree: z.string().nullable(),
  work: WorkState.nullable(),
}).strict();
export type AgentRow = z.infer<typeof AgentRow>;

/**
 * Why the dictation model did not load, in forge's words (the preflight's failure); null while
 * nothing failed. The original's is tagged (`hash_mismatch`, `cancelled`, `other {message}`);
 * forge's preflight has one kind of failure, a load that threw, and says it as a sentence.
 */
const DictateFailure = z.string().describe(
  "why the dictation model did not load, in forge's words",
);

/**
 * A status page's answer: a Statuspage `status.indicator` (none, minor, major, critical,
 * maintenance) and its description, or `unreachable` with forge's words for why. It is home's
 * `service_status` (when it names trouble) and the keyless `service_status` update's fields.
 */
export const ServiceStatus = z.object({
  severity: z.enum(["none", "minor", "major", "critical", "maintenance", "unreachable"]),
  message: z.string(),
}).strict();
export type ServiceStatus = z.infer<typeof ServiceStatus>;

/** home > dictate in the original's shape: the snapshot is `{models, failure}` even with
 * dictation off (then no models), each model with its preflight state (spec: dictate_models >
 * in_use), and `device` is the capture device a runtime pick pinned (set_dictate_device), or
 * null when none is pinned. */
export const HomeDictate = z.object({
  enabled: z.boolean(),
  snapshot: z.object({
    models: z.array(
      z.object({ role: z.string(), file: z.string(), state: PreflightState }).strict(),
    ),
    failure: DictateFailure.nullable(),
  }).strict(),
  models_dir: z.string().nullable(),
  device: DictateDeviceChoice.nullable(),
}).strict();

export const HomeSnapshot = z.object({
  projects: z.array(HomeProject),
  fleet: z.array(FleetRow),
  agents: z.array(AgentRow),
  unseen: z.array(Slot),
  /** null only in a server built without the gateway (a bare registry). */
  accounts: AccountsWire.nullable(),
  /** The connectors' liveness, as their subsystem builds it (protocol/connectors.ts). */
  connectors: ConnectorsHome,
  biometric: HomeBiometric,
  vault: HomeVault,
  dictate: HomeDictate,
  /** spec: whether [tts] is on and where its models land. With the voice subsystem on it adds
   * the speaking engine it would use and, when that engine cannot run here, why (a
   * missing package is said in the subsystem's own state, never a silent nothing). */
  voice: z.object({
    enabled: z.boolean(),
    models_dir: z.string().nullable(),
    speaking_model: z.string().optional(),
    missing: z.string().nullable().optional(),
  }).strict(),
  cli_version: z.object({ installed: z.string().nullable(), latest: z.string().nullable() })
    .strict(),
  forge_version: z.string(),
  forge_version_short: z.string(),
  boot_id: z.string(),
  /** The status page's last answer when it names trouble; null for healthy or unreachable. */
  service_status: ServiceStatus.nullable(),
  /** The original's client reads a string: the message. The kind (`config_invalid`,
   * `subsystem_failed`, `state_damaged`) rides the keyless `fatal_error` update's `error` beside it. */
  fatal_error: z.string().nullable(),
  /** forge's extension beyond v29 (protocol/notify.ts): the push channels' states. */
  notify: HomeNotify.describe("forge's extension beyond v29: the push channels (docs/notify.md)"),
  // Not here: the original's `plugins` (the extensions subject carries them, spec) and
  // `workers` (each worker is its own agents row with `tree`, spec home > agents).
}).strict();
export type HomeSnapshot = z.infer<typeof HomeSnapshot>;
/** What one subsystem contributes to the home snapshot: some of its fields, as the schema types them. */
export type HomePart = Partial<HomeSnapshot>;
