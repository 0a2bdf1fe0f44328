import type {
  ClientBinary,
  ClientKind,
  ClientMessageOf,
  Command,
  CommandName,
  NamedSubject,
  ServerMessage,
  SessionUpdate,
  Slot,
  Subject,
  Wire,
} from "../protocol/mod.ts";
import type { AreaSpec } from "./config/spec.ts";
import type { ForgeConfig } from "./config/types.ts";
import type { Logger } from "./log.ts";
import type { Workspace } from "./workspace/workspace.ts";

/**
 * The contract between the server and a subsystem (DESIGN.md §3). A subsystem is a static
 * manifest, readable at boot without running it, plus `create(host)` returning its handlers.
 * The type of `defineSubsystem` insists on exactly one handler per declared verb, command and
 * subject. Subsystems import `protocol/` and this file, never each other.
 */

/** What a handler sees of the connection a message came from. */
export interface Peer {
  readonly id: number;
  /** Whether this connection registered as able to answer prompts. spec: subscribe > answering. */
  readonly answering: boolean;
  /** The seat this connection has on screen. spec: showing. */
  readonly showing: Slot | null;
  send(message: ServerMessage): void;
  sendBinary(bytes: Uint8Array): void;
  /** Bytes queued to this peer and not yet written: how far behind it is. */
  buffered(): number;
  /** Runs once when the connection ends, whatever ended it. */
  onClose(fn: () => void): void;
}

/** What the server hands every subsystem. */
export interface Host {
  readonly log: Logger;
  /** The config in force now; a reload swaps it, so read it at use rather than caching it. */
  config(): ForgeConfig;
  /** forge's own state directory (beside forge.toml): stores, rolled logs. */
  readonly stateDir: string;
  /** The seats, projects and the update stream every subsystem reads through. */
  readonly workspace: Workspace;
  /** Emits an update into the stream: numbered on its seat's counter and fanned out. */
  emit(update: SessionUpdate): void;
}

export type VerbHandler<K extends ClientKind> = (
  message: ClientMessageOf<K>,
  peer: Peer,
) => void | Promise<void>;

/** A command's handler; the nine reply commands return their reply body. */
export type CommandHandler<N extends CommandName> = (
  command: Extract<Command, { name: N }>,
  peer: Peer,
) => Wire | void | Promise<Wire | void>;

/** Answers a subscribe with the subject's snapshot data; throws a sentence to refuse it. */
export type SubjectHandler = (
  subject: Subject,
  peer: Peer,
  opts: { review: boolean },
) => Promise<Wire>;

export type SubjectName = NamedSubject | "session";

export interface Handlers<V extends ClientKind, C extends CommandName, S extends SubjectName> {
  verbs: { [K in V]: VerbHandler<K> };
  commands: { [N in C]: CommandHandler<N> };
  subjects: { [K in S]: SubjectHandler };
  /** Binary frames of the kinds the manifest declared. */
  binary?: (frame: ClientBinary, peer: Peer) => void;
  /**
   * Fields this subsystem contributes to a seat's session snapshot (e.g. `terminal`). `review`
   * is the subscribe's flag: the review page's own read. spec: subscribe > review.
   */
  sessionFields?: (
    slot: Slot,
    opts: { review: boolean },
  ) => Record<string, Wire> | Promise<Record<string, Wire>>;
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

/** The one error class that crosses the wire: its message is the `why`, `what` names the verb. */
export class Refusal extends Error {
  constructor(readonly what: string, why: string, readonly seat: Slot | null = null) {
    super(why);
    this.name = "Refusal";
  }
}

/**
 * A core area that serves one keyless subject and nothing else (home, board): the manifest and
 * its handler in one call, through the same registry every subsystem uses.
 */
export function subjectArea<const S extends SubjectName>(
  id: string,
  note: string,
  subject: S,
  read: (host: Host, peer: Peer) => Wire | Promise<Wire>,
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
          const handler: SubjectHandler = async (_s, peer) => await read(host, peer);
          return {
            verbs: {},
            commands: {},
            subjects: Object.fromEntries([[subject, handler]]) as { [K in S]: SubjectHandler },
          };
        },
      }),
  });
}
