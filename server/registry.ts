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

  constructor(readonly manifests: readonly AnyManifest[]) {}

  async boot(host: Host): Promise<void> {
    this.#log = host.log;
    const config = host.config();
    const toolNames = new Set<string>();
    for (const manifest of this.manifests) {
      const entry: Entry = { manifest, handlers: null, refusal: null };
      const toolProblem = toolDeclarationProblem(manifest.tools ?? [], toolNames);
      for (const spec of manifest.tools ?? []) toolNames.add(spec.name);
      if (toolProblem !== null) {
        entry.refusal = `the ${manifest.id} subsystem failed to start: ${toolProblem}`;
        host.log.error("subsystem_failed", { subsystem: manifest.id, error: toolProblem });
      } else if (!switchedOn(manifest, config)) {
        entry.refusal =
          `the ${manifest.id} subsystem is turned off by ${manifest.switch} in forge.toml`;
      } else if (manifest.load === null) {
        entry.refusal = `the ${manifest.id} subsystem is not built yet`;
      } else {
        try {
          const mod = await manifest.load();
          entry.handlers = checkHandlers(manifest, await mod.create(host));
          host.log.info("subsystem_started", { subsystem: manifest.id });
        } catch (err) {
          entry.refusal = `the ${manifest.id} subsystem failed to start: ${
            isEngineError(err) ? "its start threw; the log has the cause" : (err as Error).message
          }`;
          host.log.error("subsystem_failed", { subsystem: manifest.id, error: err });
          host.workspace.setFatal("subsystem_failed", entry.refusal);
        }
      }
      this.#entries.push(entry);
      for (const v of manifest.verbs) this.#verbs.set(v, entry);
      for (const c of manifest.commands) this.#commands.set(c, entry);
      for (const s of manifest.subjects) this.#subjects.set(s, entry);
      for (const b of manifest.binary) this.#binary.set(b, entry);
    }
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

  /** Routes a client binary frame; false when no running subsystem takes its kind. */
  binary(frame: ClientBinary, peer: Peer): boolean {
    const handlers = this.#binary.get(frame.kind)?.handlers;
    if (!handlers?.binary) return false;
    handlers.binary(frame, peer);
    return true;
  }

  /** Every running subsystem's contribution to a seat's session snapshot. */
  async sessionFields(slot: Slot, opts: { review: boolean }): Promise<SessionPart> {
    const out: SessionPart = {};
    for (const entry of this.#entries) {
      if (entry.handlers?.sessionFields) {
        Object.assign(out, await entry.handlers.sessionFields(slot, opts));
      }
    }
    return out;
  }

  /** Every running subsystem's contribution to the home snapshot; one failing read is left out. */
  async homeFields(log: (err: unknown, id: string) => void): Promise<HomePart> {
    const out: HomePart = {};
    for (const entry of this.#entries) {
      try {
        if (entry.handlers?.homeFields) Object.assign(out, await entry.handlers.homeFields());
      } catch (err) {
        log(err, entry.manifest.id);
      }
    }
    return out;
  }

  /** Every running subsystem's contribution to a project's board entry. */
  boardFields(project: { org: string; name: string }): Record<string, Wire> {
    const out: Record<string, Wire> = {};
    for (const entry of this.#entries) {
      Object.assign(out, entry.handlers?.boardFields?.(project) ?? {});
    }
    return out;
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
      try {
        await entry.handlers?.stop?.();
      } catch (error) {
        // Shutdown keeps going: one subsystem's failure to stop must not strand the others.
        this.#log?.error("subsystem_stop_failed", { subsystem: entry.manifest.id, error });
      }
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
