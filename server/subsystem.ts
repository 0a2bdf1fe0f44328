import type { EncodedData } from "./encoded.ts";
import type {
  ClientBinary,
  ClientKind,
  ClientMessageOf,
  Command,
  CommandName,
  DictateModelsSnapshot,
  HomePart,
  NamedSubject,
  PromptSource,
  ReplyCommandName,
  ReplyOf,
  SessionPart,
  SessionUpdate,
  Slot,
  SnapshotNamed,
  Subject,
  Wire,
} from "../protocol/mod.ts";
import type { AreaSpec } from "./config/spec.ts";
import type { ForgeConfig } from "./config/types.ts";
import type { HeldAsks } from "./held_asks.ts";
import type { Logger } from "./log.ts";
import type { StateKeeper } from "./state/keeper.ts";
import type { Workspace } from "./workspace/workspace.ts";

/**
 * The contract between the server and a subsystem. A subsystem is a static
 * manifest, readable at boot without running it, plus `create(host)` returning its handlers.
 * The type of `defineSubsystem` insists on exactly one handler per declared verb, command and
 * subject. Subsystems import `protocol/` and this file, never each other.
 */

// What a handler sees of the connection a message came from (peer.ts).
import type { Peer } from "./peer.ts";
export * from "./peer.ts";

// forge's own MCP tools: their declarations and typed handlers (tool_spec.ts).
import type { ToolHandler, ToolSpec } from "./tool_spec.ts";
export * from "./tool_spec.ts";

// The held asks' contract (HELD_KINDS, HeldAsks, ...) lives in held_asks.ts; subsystems read it
// from here.
export * from "./held_asks.ts";

/**
 * A forged user turn forge hands a seat (spec: "Not every frame on the stream is the CLI's"):
 * a cron fire, a Gotify or Slack message, a peer's message, forge's own notes.
 */
export interface Delivery {
  text: string;
  source: PromptSource;
  /** The prompt's uuid; minted when absent. Cron maps it to its schedule for `cron_names`. */
  uuid?: string;
  /** An extra update to emit once the turn is forged (`cron_prompt_appended`, ...). */
  announce?: SessionUpdate;
  /**
   * This very prompt (`uuid`) may have been handed over before forge went down: the seat's
   * transcript is read first, and a prompt that already landed there is not sent again.
   */
  once?: boolean;
}

/**
 * What a delivery did: `sent` the prompt to the seat's CLI, or found it `landed` already (a
 * `once` delivery whose uuid is in the transcript: nothing was sent, and no `prompt_lifecycle`
 * will come for it).
 */
export type Delivered = "sent" | "landed";

/**
 * The two speech roles reach each other through the Host, never by import. Dictation
 * offers its active engine (the speaking bench reads its clips back with it) and its models page;
 * voice offers the speaking fields that page carries. spec: dictate_models > speaking, in_use,
 * speaking_bench, speaking_results. Either is null while its subsystem is off; the core area
 * serving dictate_models (server/areas/dictate_models.ts) reads them and sets `announce`.
 */
export interface SpeechRoles {
  dictation: DictationRole | null;
  speaking: SpeakingRole | null;
  /**
   * Re-pushes the models page (`dictate_models_changed`) after a speaking field moved: the
   * dictation role's page when it runs, else the page a switched-off [dictate] still serves.
   */
  announce?: () => void;
}

export interface DictationRole {
  /** The active dictation model's file, as `in_use` names it. */
  file(): string;
  /** Reads 16 kHz mono i16 back into words off the event loop; rejects with a sentence. */
  transcribe(pcm: Int16Array): Promise<string>;
  /** The whole models page (the dictate_models read), speaking fields included. */
  page(): DictateModelsSnapshot;
  /** Re-pushes the models page (`dictate_models_changed`). */
  announce(): void;
}

export interface SpeakingRole {
  /** The speaking role's fields of the dictate_models read, and its `in_use` row. */
  fields(): SpeakingFields;
}

/** The speaking role's fields of the dictate_models read, and its `in_use` row
 * (protocol/dictate.ts). */
export type SpeakingFields =
  & Pick<DictateModelsSnapshot, "speaking" | "speaking_bench" | "speaking_results">
  & { in_use: DictateModelsSnapshot["in_use"][number] };

/**
 * Who has a seat in front of them now: the connections that declared answering and have it in
 * `showing`. spec: showing; subscribe > answering. A read-only viewer is nobody who could answer.
 */
export interface Attendance {
  /** Whether an answering connection shows this seat right now. */
  attended(slot: Slot): boolean;
  /**
   * Whether any connection holds the seat's session subject now, answering or not: what a
   * subsystem that works only for the seat's subscribers (the review watch) lives by.
   */
  held(slot: Slot): boolean;
  /**
   * Runs `fn` after any connection's `showing` or answering moves, a seat's session subject
   * loses a holder, or a connection ends (the last viewer leaving is one); returns the call that
   * stops it. A throwing `fn` is skipped.
   */
  onChange(fn: () => void): () => void;
}

/** What the server hands every subsystem. */
export interface Host {
  readonly log: Logger;
  /** The config in force now; a reload swaps it, so read it at use rather than caching it. */
  config(): ForgeConfig;
  /** forge's own state directory (beside forge.toml): stores, rolled logs. */
  readonly stateDir: string;
  /**
   * The one keeper of every state file (server/state/keeper.ts): a store asks it for its file
   * and never writes under `stateDir` itself.
   */
  readonly state: StateKeeper;
  /** The seats, projects and the update stream every subsystem reads through. */
  readonly workspace: Workspace;
  /**
   * Emits an update into the stream: numbered on its seat's counter and fanned out; with
   * `"answering"`, only to the answering connections it routes to (a secret, `vault_rotated`).
   */
  emit(update: SessionUpdate, to?: "answering"): void;
  /** The per-seat registry of held asks. */
  readonly asks: HeldAsks;
  /**
   * Delivers a forged user turn to a seat, waking a sleeping lead first; rejects with a
   * sentence when the seat cannot take it (no such project, the launch failed).
   */
  deliver(slot: Slot, delivery: Delivery): Promise<Delivered>;
  /** Tells the seats' CLIs their tool lists changed (`notifications/tools/list_changed`). */
  toolsChanged(slot?: Slot): void;
  /** The speech roles' meeting point; absent in hosts built without speech. */
  readonly speech?: SpeechRoles;
  /** Who shows which seat; absent in hosts built without connections (a fake host). */
  readonly attendance?: Attendance;
  /**
   * Runs `fn` after each reload of forge.toml that moved something (`config()` already answers
   * the new one); returns the call that stops it. Absent in hosts built without a config store.
   */
  onReload?(fn: () => void): () => void;
}

export type VerbHandler<K extends ClientKind> = (
  message: ClientMessageOf<K>,
  peer: Peer,
) => void | Promise<void>;

/**
 * What a command's handler answers: a reply command its reply body, of protocol/'s reply schema
 * type for it (COMMANDS' `reply`), so a body off that schema fails the type check; any other
 * command nothing. spec: command > reply_to.
 */
export type CommandAnswer<N extends CommandName> = N extends ReplyCommandName ? ReplyOf<N> : void;

/** A command's handler; the reply commands return their reply body. */
export type CommandHandler<N extends CommandName> = (
  command: Extract<Command, { name: N }>,
  peer: Peer,
) => CommandAnswer<N> | Promise<CommandAnswer<N>>;

export type SubjectName = NamedSubject | "session";

/**
 * Answers a subscribe to the subject filed under `K` with its snapshot data, of that subject's
 * schema type (protocol/snapshots.ts), or that data already encoded (encoded.ts); throws a
 * sentence to refuse it. Unparameterised it is any subject's, as the registry hands it out.
 */
export type SubjectHandler<K extends SubjectName = SubjectName> = (
  subject: Subject,
  peer: Peer,
  opts: { review: boolean },
) => Promise<SnapshotNamed<K> | EncodedData<SnapshotNamed<K>>>;

export interface Handlers<V extends ClientKind, C extends CommandName, S extends SubjectName> {
  verbs: { [K in V]: VerbHandler<K> };
  commands: { [N in C]: CommandHandler<N> };
  subjects: { [K in S]: SubjectHandler<K> };
  /** Binary frames of the kinds the manifest declared. */
  binary?: (frame: ClientBinary, peer: Peer) => void;
  /**
   * Fields this subsystem contributes to a seat's session snapshot (e.g. `terminal`). `review`
   * is the subscribe's flag: the review page's own read. spec: subscribe > review.
   */
  sessionFields?: (
    slot: Slot,
    opts: { review: boolean },
  ) => SessionPart | Promise<SessionPart>;
  /**
   * Fields this subsystem contributes to the home snapshot (the vault's `vault` and `biometric`
   * rows); they replace the core's defaults for those names. spec: What a subject carries > home.
   */
  homeFields?: () => HomePart | Promise<HomePart>;
  /** Fields it contributes to each project's board entry (the connectors' `connectors`). */
  boardFields?: (project: { org: string; name: string }) => Record<string, Wire>;
  /** One handler per tool the manifest declares. */
  tools?: Record<string, ToolHandler>;
  /** Sees every update the workspace emits, after it is numbered. */
  onUpdate?: (update: SessionUpdate) => void;
  /** Ends whatever the subsystem runs; called once at shutdown. */
  stop?: () => Promise<void>;
}

export interface Manifest<
  V extends ClientKind = ClientKind,
  C extends CommandName = CommandName,
  S extends SubjectName = SubjectName,
> {
  id: string;
  note: string;
  /** The config key that turns it off (`terminal.enabled`), or null for a core area. */
  switch: string | null;
  /** The subsystem's config area; its keys join the catalogue whether or not it is on. */
  area: AreaSpec | null;
  verbs: readonly V[];
  commands: readonly C[];
  subjects: readonly S[];
  binary: readonly number[];
  /** forge's MCP tools this subsystem offers the seats' agents; none when absent. */
  tools?: readonly ToolSpec[];
  /** Imports the implementation; null for a subsystem not built yet. Never called when off. */
  load:
    | (() => Promise<{ create: (host: Host) => Handlers<V, C, S> | Promise<Handlers<V, C, S>> }>)
    | null;
}

/**
 * A manifest with its handler types erased, so lists can hold different subsystems. Every
 * `Manifest<V, C, S>` is one; the registry checks at load that the handlers cover the names.
 */
export interface AnyManifest {
  id: string;
  note: string;
  switch: string | null;
  area: AreaSpec | null;
  verbs: readonly ClientKind[];
  commands: readonly CommandName[];
  subjects: readonly SubjectName[];
  binary: readonly number[];
  tools?: readonly ToolSpec[];
  load: (() => Promise<{ create: (host: Host) => unknown }>) | null;
}

/** Declares a subsystem; the generics tie the handler map to the declared names. */
export function defineSubsystem<
  const V extends ClientKind = never,
  const C extends CommandName = never,
  const S extends SubjectName = never,
>(manifest: Manifest<V, C, S>): Manifest<V, C, S> {
  return manifest;
}

export type { KeptFile, KeptRead, StateKeeper } from "./state/keeper.ts";
export { isEngineError, netWords, ownWords, spawnWords } from "./words.ts";
export { ioWords, readWords } from "./state/words.ts";
export { schemaParse, StateWriteError } from "./state/keeper.ts";

/** The one error class that crosses the wire: its message is the `why`, `what` names the verb. */
export class Refusal extends Error {
  constructor(readonly what: string, why: string, readonly seat: Slot | null = null) {
    super(why);
    this.name = "Refusal";
  }
}

/** What a fields area's start offers: fields over reads, an ear on updates, its stop. */
type FieldsHandlers = Pick<
  Handlers<never, never, never>,
  "homeFields" | "sessionFields" | "onUpdate" | "stop"
>;

/**
 * A core area that answers no verb, command or subject: it only lays fields over a read (home's,
 * a seat's), hears updates and stops - `create` returns (or resolves to) those handlers alone.
 */
export function fieldsArea(
  id: string,
  note: string,
  create: (host: Host) => FieldsHandlers | Promise<FieldsHandlers>,
) {
  return defineSubsystem({
    id,
    note,
    switch: null,
    area: null,
    verbs: [],
    commands: [],
    subjects: [],
    binary: [],
    load: () =>
      Promise.resolve({
        create: async (host: Host) => ({
          verbs: {},
          commands: {},
          subjects: {},
          ...(await create(host)),
        }),
      }),
  });
}

/**
 * A core area that serves one keyless subject and nothing else (home, board): the manifest and
 * its handler in one call, through the same registry every subsystem uses.
 */
export function subjectArea<const S extends SubjectName>(
  id: string,
  note: string,
  subject: S,
  read: (host: Host, peer: Peer) => SnapshotNamed<S> | Promise<SnapshotNamed<S>>,
) {
  return defineSubsystem({
    id,
    note,
    switch: null,
    area: null,
    verbs: [],
    commands: [],
    subjects: [subject],
    binary: [],
    load: () =>
      Promise.resolve({
        create: (host: Host) => {
          const handler: SubjectHandler<S> = async (_s, peer) => await read(host, peer);
          return {
            verbs: {},
            commands: {},
            subjects: Object.fromEntries([[subject, handler]]) as { [K in S]: SubjectHandler<K> },
          };
        },
      }),
  });
}
