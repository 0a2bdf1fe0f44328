import type { PreflightState } from "../../protocol/mod.ts";
import type { EngineModel, Transcriber } from "./engines/engine.ts";
import { WorkerPool } from "./engines/pool.ts";
import { SileroVad } from "./vad.ts";

/** A model's preflight state. spec: dictate_models > in_use > state (the states that apply here). */
export type ModelState = "pending" | "loading" | "ready" | "failed";

/** One role's model as the preflight holds it. */
export interface RoleModel {
  role: "dictation" | "vad";
  file: string;
  state: ModelState;
  failure: string | null;
  /** Where the choice came from: the compiled pin or an installed pick. spec: in_use > from. */
  from: "compiled_pin" | "installed_pick";
  /** When a runtime pick chose it (ms since the epoch), null for the compiled pin. */
  at: number | null;
}

/** A role's state as the wire carries it (home > dictate, dictate_models > in_use): a failure
 * tagged with its reason. */
export function wireState(m: RoleModel): PreflightState {
  return m.state === "failed" ? { failed: m.failure ?? "it failed without a reason" } : m.state;
}

/**
 * Loads the models the roles run (the preflight) and swaps them when a person activates another.
 * `announce` fires when a load ends either way: the `dictate_availability` update. spec: home >
 * dictate, dictate_models > in_use, "dictate_availability reaches this subject too".
 */
export class Preflight {
  #pool: WorkerPool | null = null;
  #vad: SileroVad | null = null;
  dictation: RoleModel;
  vad: RoleModel;

  constructor(
    private model: EngineModel,
    vadFile: string,
    private readonly announce: () => void,
    private readonly makePool: (m: EngineModel) => Transcriber & { ready(): Promise<void> } = (
      m,
    ) => new WorkerPool(m),
  ) {
    this.dictation = role("dictation", model.path);
    this.vad = role("vad", vadFile);
  }

  /** Loads both roles; resolves when both settled (never rejects: failures are states). */
  async start(): Promise<void> {
    await Promise.all([this.#loadDictation(), this.#loadVad()]);
    this.announce();
  }

  /** The engine a take decodes on, or the sentence why there is none. */
  engine(): Transcriber | { refusal: string } {
    if (this.dictation.state === "failed" || !this.#pool) {
      return {
        refusal: `dictation cannot decode: ${this.dictation.failure ?? "no model is loaded yet"}`,
      };
    }
    return this.#pool;
  }

  get loadedVad(): SileroVad | null {
    return this.#vad;
  }

  get activeModel(): EngineModel {
    return this.model;
  }

  /** Swaps the dictation model for another (an activation); resolves when it is ready or failed. */
  async swap(model: EngineModel, from: RoleModel["from"]): Promise<void> {
    const old = this.#pool;
    this.model = model;
    this.dictation = { ...role("dictation", model.path), from, at: Date.now() };
    this.#pool = null;
    old?.close();
    await this.#loadDictation();
    this.announce();
  }

  close(): void {
    this.#pool?.close();
    this.#pool = null;
  }

  async #loadDictation(): Promise<void> {
    const pool = this.makePool(this.model);
    this.#pool = pool as WorkerPool;
    this.dictation.state = "loading";
    try {
      await pool.ready();
      if (this.#pool === pool) this.dictation.state = "ready";
    } catch (err) {
      if (this.#pool !== pool) return;
      this.dictation.state = "failed";
      this.dictation.failure = (err as Error).message;
      pool.close();
      this.#pool = null;
    }
  }

  async #loadVad(): Promise<void> {
    this.vad.state = "loading";
    try {
      this.#vad = await SileroVad.load(this.vad.file);
      this.vad.state = "ready";
    } catch (err) {
      this.vad.state = "failed";
      this.vad.failure = (err as Error).message;
    }
  }
}

function role(r: RoleModel["role"], file: string): RoleModel {
  return { role: r, file, state: "pending", failure: null, from: "compiled_pin", at: null };
}
