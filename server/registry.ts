import type {
  ClientBinary,
  ClientKind,
  CommandName,
  HomePart,
  SessionPart,
  SessionUpdate,
  Slot,
  Wire,
} from "../protocol/mod.ts";
import { type Clock, MONOTONIC } from "./clock.ts";
import { SlowStart, withinLimit } from "./start_limit.ts";
import { isEngineError } from "./words.ts";
import type { AreaSpec } from "./config/spec.ts";
import type { ForgeConfig } from "./config/types.ts";
import { toolDeclarationProblem, type ToolEntry } from "./workspace/mcp/catalog.ts";
import type {
  AnyManifest,
  CommandHandler,
  Handlers,
  Host,
  Peer,
  SubjectHandler,
  SubjectName,
  VerbHandler,
} from "./subsystem.ts";

type AnyHandlers = Handlers<ClientKind, CommandName, SubjectName>;
type Entry = { manifest: AnyManifest; handlers: AnyHandlers | null; refusal: string | null };
/** What a start leaves: its handlers when it runs, else the sentence why not (off, not built). */
type Started = Pick<Entry, "handlers" | "refusal">;

/** Whether a manifest's switch is on in this config (a core area has none and is always on). */
export function switchedOn(manifest: AnyManifest, config: ForgeConfig): boolean {
  if (manifest.switch === null) return true;
  const [area, ...rest] = manifest.switch.split(".");
  return config.areas[area]?.[rest.join(".")] === true;
}

/** Every config area: the core's and each subsystem's, on or off. */
export function catalogueAreas(core: AreaSpec[], manifests: readonly AnyManifest[]): AreaSpec[] {
  return [...core, ...manifests.flatMap((m) => (m.area ? [m.area] : []))];
}

/**
 * Loads the enabled subsystems and answers "who handles this?" for every verb, command, subject
 * and binary kind. An off subsystem is never imported, and its names are answered with a sentence
 * naming it and the key that turned it off; one that throws at start is reported and the rest
 * runs.
 */
export class Registry {
  readonly #entries: Entry[] = [];
  #log: Host["log"] | null = null;
  readonly #verbs = new Map<string, Entry>();
  readonly #commands = new Map<string, Entry>();
  readonly #subjects = new Map<string, Entry>();
  readonly #binary = new Map<number, Entry>();

  /** `clock`: what each start's time limit runs on; a test hands in one it moves by hand. */
  constructor(readonly manifests: readonly AnyManifest[], readonly clock: Clock = MONOTONIC) {}

  /**
   * Starts each switched-on subsystem in the list's order. Whatever one subsystem's declaration,
   * import or start throws (a tool declared wrong, a module that throws as it loads, a config
   * value its start refuses) disables that subsystem alone: it is reported (the log, and home's
   * `fatal_error` on the wire, DESIGN: A subsystem) and its names answer with the sentence; the
   * others start as if it were not there. A start that has not finished within
   * `[server] subsystem_start_secs` is disabled the same way and the boot goes on: without the
   * limit, one start waiting on what never comes would keep forge from ever serving. Only the
   * registry's own failure rejects.
   */
  async boot(host: Host): Promise<void> {
    this.#log = host.log;
    const config = host.config();
    const secs = config.server.subsystem_start_secs;
    const toolNames = new Set<string>();
    for (const manifest of this.manifests) {
      const entry: Entry = { manifest, handlers: null, refusal: null };
      try {
        const started = await withinLimit(
          this.clock,
          secs * 1000,
          (late) => this.#start(manifest, host, config, toolNames, late),
          () => new SlowStart(manifest.id, secs),
          (late) => this.#afterLimit(manifest, late),
        );
        Object.assign(entry, started);
        if (started.handlers) host.log.info("subsystem_started", { subsystem: manifest.id });
      } catch (err) {
        entry.handlers = null;
        entry.refusal = err instanceof SlowStart
          ? err.message
          : `the ${manifest.id} subsystem failed to start: ${
            isEngineError(err) ? "its start threw; the log has the cause" : (err as Error).message
          }`;
        host.log.error("subsystem_failed", { subsystem: manifest.id, error: err });
        host.workspace.setFatal("subsystem_failed", entry.refusal);
      }
      this.#entries.push(entry);
      for (const v of manifest.verbs) this.#verbs.set(v, entry);
      for (const c of manifest.commands) this.#commands.set(c, entry);
      for (const s of manifest.subjects) this.#subjects.set(s, entry);
      for (const b of manifest.binary) this.#binary.set(b, entry);
    }
  }

  /**
   * One subsystem's start: its handlers, or the sentence why it is not running (off, not built);
   * throws what stops it from starting. Its tools' names are taken either way. A module that
   * loads after the start limit (`late`) is never created: nothing would use what it started.
   */
  async #start(
    manifest: AnyManifest,
    host: Host,
    config: ForgeConfig,
    toolNames: Set<string>,
    late: () => boolean,
  ): Promise<Started> {
    const toolProblem = toolDeclarationProblem(manifest.tools ?? [], toolNames);
    for (const spec of manifest.tools ?? []) toolNames.add(spec.name);
    if (toolProblem !== null) throw new Error(toolProblem);
    if (!switchedOn(manifest, config)) {
      const refusal =
        `the ${manifest.id} subsystem is turned off by ${manifest.switch} in forge.toml`;
      return { handlers: null, refusal };
    }
    if (manifest.load === null) {
      return { handlers: null, refusal: `the ${manifest.id} subsystem is not built yet` };
    }
    const mod = await manifest.load().then((m) => m, (err) => {
      // A module that throws as it is imported: said as that, the import's own words the cause.
      throw new Error("its module could not be loaded; the log has the cause", { cause: err });
    });
    if (late()) return { handlers: null, refusal: null };
    const made = await mod.create(host);
    try {
      return { handlers: checkHandlers(manifest, made), refusal: null };
    } catch (err) {
      // It started: what its start began (a timer, a process) is ended before it is reported.
      await this.#stopOne(manifest, made as Partial<AnyHandlers>);
      throw err;
    }
  }

  /**
   * A start that finished after its limit, the subsystem already reported off: what it started
   * is stopped, so nothing runs half-on with no way to reach it; one that failed then is logged,
   * as nobody awaits it any more.
   */
  #afterLimit(manifest: AnyManifest, late: Promise<Started>): void {
    const subsystem = manifest.id;
    late.then(async ({ handlers }) => {
      if (handlers) await this.#stopOne(manifest, handlers);
      this.#log?.warn("subsystem_start_late", {
        subsystem,
        outcome: handlers ? "stopped" : "not_created",
      });
    }, (error) => this.#log?.warn("subsystem_start_late", { subsystem, outcome: "failed", error }));
  }

  /** The handler for a client verb, or the sentence refusing it. */
  verb<K extends ClientKind>(kind: K): { handler: VerbHandler<K> } | { refusal: string } {
    const entry = this.#verbs.get(kind);
    if (!entry) return { refusal: `no subsystem handles \`${kind}\`` };
    if (!entry.handlers) return { refusal: entry.refusal ?? "unavailable" };
    return { handler: (entry.handlers.verbs as unknown as Record<string, VerbHandler<K>>)[kind] };
  }

  command<N extends CommandName>(name: N): { handler: CommandHandler<N> } | { refusal: string } {
    const entry = this.#commands.get(name);
    if (!entry) return { refusal: `no subsystem handles the command \`${name}\` yet` };
    if (!entry.handlers) return { refusal: entry.refusal ?? "unavailable" };
    return {
      handler: (entry.handlers.commands as unknown as Record<string, CommandHandler<N>>)[name],
    };
  }

  /** The handler of the subject filed under `name`, typed for it (protocol/snapshots.ts). */
  subject<K extends SubjectName>(name: K): { handler: SubjectHandler<K> } | { refusal: string } {
    const entry = this.#subjects.get(name);
    if (!entry) return { refusal: `no subsystem serves the \`${name}\` subject` };
    if (!entry.handlers) return { refusal: entry.refusal ?? "unavailable" };
    // The entry was filed under `name` by the manifest that declared it (Handlers' subjects).
    return { handler: entry.handlers.subjects[name] as SubjectHandler<K> };
  }

  /** Routes a client binary frame; false when no running subsystem takes its kind. A handler
   * that throws is logged (`subsystem_binary_failed`) and the connection reads on. */
  binary(frame: ClientBinary, peer: Peer): boolean {
    const entry = this.#binary.get(frame.kind);
    const handler = entry?.handlers?.binary;
    if (!entry || !handler) return false;
    try {
      handler(frame, peer);
    } catch (error) {
      // Thrown on, it would reject the connection's message queue and stall it for good.
      this.#log?.error("subsystem_binary_failed", {
        subsystem: entry.manifest.id,
        kind: frame.kind,
        error,
      });
    }
    return true;
  }

  /** Every running subsystem's contribution to a seat's session snapshot; one failing read is
   * left out (logged as `subsystem_session_failed`), the snapshot goes on without it. */
  async sessionFields(slot: Slot, opts: { review: boolean }): Promise<SessionPart> {
    const out: SessionPart = {};
    for (const entry of this.#entries) {
      const read = entry.handlers?.sessionFields;
      if (read) Object.assign(out, await this.#part(entry, "session", () => read(slot, opts)));
    }
    return out;
  }

  /** Every running subsystem's contribution to the home snapshot; one failing read is left out
   * (`subsystem_home_failed`). */
  async homeFields(): Promise<HomePart> {
    const out: HomePart = {};
    for (const entry of this.#entries) {
      const read = entry.handlers?.homeFields;
      if (read) Object.assign(out, await this.#part(entry, "home", read));
    }
    return out;
  }

  /** Every running subsystem's contribution to a project's board entry; one failing read is
   * left out (`subsystem_board_failed`). */
  boardFields(project: { org: string; name: string }): Record<string, Wire> {
    const out: Record<string, Wire> = {};
    for (const entry of this.#entries) {
      try {
        Object.assign(out, entry.handlers?.boardFields?.(project) ?? {});
      } catch (error) {
        this.#log?.warn("subsystem_board_failed", { subsystem: entry.manifest.id, error });
      }
    }
    return out;
  }

  /** One subsystem's part of a snapshot: what it read, or nothing when the read threw (logged:
   * one subsystem's failure must not take a whole subject down with it). */
  async #part<T extends object>(
    entry: Entry,
    subject: "session" | "home",
    read: () => T | Promise<T>,
  ): Promise<T | Record<never, never>> {
    try {
      return await read();
    } catch (error) {
      this.#log?.warn(`subsystem_${subject}_failed`, { subsystem: entry.manifest.id, error });
      return {};
    }
  }

  /**
   * forge's MCP tools the seats may call under `config`: every tool a running
   * subsystem declared, unless a reload has since switched that subsystem off or the tool's own
   * `when` does not hold under it.
   */
  tools(config: ForgeConfig): ToolEntry[] {
    const out: ToolEntry[] = [];
    for (const entry of this.#entries) {
      const handlers = entry.handlers?.tools;
      if (!handlers || !switchedOn(entry.manifest, config)) continue;
      for (const spec of entry.manifest.tools ?? []) {
        if (spec.when && !spec.when(config)) continue;
        out.push({ spec, handler: handlers[spec.name], subsystem: entry.manifest.id });
      }
    }
    return out;
  }

  /** Hands every update to the subsystems that listen; one listener's throw never stops the rest. */
  onUpdate(update: SessionUpdate, log: (err: unknown, id: string) => void): void {
    for (const entry of this.#entries) {
      try {
        entry.handlers?.onUpdate?.(update);
      } catch (err) {
        log(err, entry.manifest.id);
      }
    }
  }

  /** The ids of the subsystems running, off, failed or unbuilt: for the boot record. */
  states(): { id: string; running: boolean; why: string | null }[] {
    return this.#entries.map((e) => ({
      id: e.manifest.id,
      running: e.handlers !== null,
      why: e.refusal,
    }));
  }

  async stop(): Promise<void> {
    for (const entry of [...this.#entries].reverse()) {
      if (entry.handlers) await this.#stopOne(entry.manifest, entry.handlers);
    }
  }

  /** Stops one subsystem; a failure to stop is logged and goes no further. */
  async #stopOne(manifest: AnyManifest, handlers: Partial<AnyHandlers> | null): Promise<void> {
    try {
      await handlers?.stop?.();
    } catch (error) {
      // Shutdown keeps going: one subsystem's failure to stop must not strand the others.
      this.#log?.error("subsystem_stop_failed", { subsystem: manifest.id, error });
    }
  }
}

/** The type system insists on one handler per declared name; this holds the line at run time too. */
function checkHandlers(manifest: AnyManifest, made: unknown): AnyHandlers {
  const h = made as AnyHandlers;
  const missing = [
    ...manifest.verbs.filter((v) =>
      typeof (h.verbs as Record<string, unknown>)?.[v] !== "function"
    ),
    ...manifest.commands.filter((c) =>
      typeof (h.commands as Record<string, unknown>)?.[c] !== "function"
    ),
    ...manifest.subjects.filter((s) =>
      typeof (h.subjects as Record<string, unknown>)?.[s] !== "function"
    ),
    ...(manifest.tools ?? []).map((t) => t.name).filter((t) =>
      typeof (h.tools as Record<string, unknown> | undefined)?.[t] !== "function"
    ),
  ];
  const undeclared = Object.keys(h.tools ?? {}).filter((t) =>
    !(manifest.tools ?? []).some((spec) => spec.name === t)
  );
  if (undeclared.length > 0) {
    throw new Error(`has handlers for undeclared tools ${undeclared.join(", ")}`);
  }
  if (missing.length > 0) {
    throw new Error(`declares ${missing.join(", ")} but has no handler for them`);
  }
  return h;
}
