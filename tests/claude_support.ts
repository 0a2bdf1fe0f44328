/**
 * Test support for driving the real `claude` CLI against the fake Messages API: a temp world
 * (HOME, CLAUDE_CONFIG_DIR, CLAUDE_CODE_TMPDIR, a working dir), the fake API, spawned
 * processes, and a frame log to await frames on. Everything is torn down by `dispose`.
 */
import { type FakeApi, type ScriptInput, startFakeApi } from "../fixtures/fake_api/mod.ts";
import { type ArgvOptions, buildArgv } from "../server/workspace/claude/argv.ts";
import { buildChildEnv } from "../server/workspace/claude/env.ts";
import { ClaudeProcess, type ClaudeSpawnOptions } from "../server/workspace/claude/process.ts";
import type { CliFrame } from "../server/workspace/claude/types.ts";

/** Every frame a process printed, with a way to await the next matching one. */
export class FrameLog {
  readonly frames: CliFrame[] = [];
  readonly badLines: string[] = [];
  readonly ended: Promise<void>;
  #wake: Array<() => void> = [];
  #done = false;

  constructor(private proc: ClaudeProcess) {
    this.ended = (async () => {
      for await (const e of proc.events()) {
        if (e.kind === "frame") this.frames.push(e.frame);
        else this.badLines.push(`${e.reason}: ${e.line}`);
        this.#notify();
      }
      this.#done = true;
      this.#notify();
    })();
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = [];
    for (const f of w) f();
  }

  /** The current length: pass it as `from` to wait only for later frames. */
  mark(): number {
    return this.frames.length;
  }

  /** Resolves with the first frame at index >= `from` matching `pred`; rejects (naming `what`,
   * the frame types seen and the stderr tail) on timeout or when stdout ends first. */
  async waitFor(
    pred: (f: CliFrame) => boolean,
    what: string,
    from = 0,
    timeoutMs = 20_000,
  ): Promise<CliFrame> {
    const deadline = Date.now() + timeoutMs;
    for (let i = from;;) {
      for (; i < this.frames.length; i++) if (pred(this.frames[i])) return this.frames[i];
      const left = deadline - Date.now();
      if (this.#done || left <= 0) {
        const seen = this.frames.slice(from).map((f) =>
          f.subtype ? `${f.type}/${f.subtype}` : f.type
        );
        throw new Error(
          `waiting for ${what}: ${this.#done ? "stdout ended" : "timed out"}; saw [${
            seen.join(", ")
          }]; ` +
            `stderr: ${this.proc.stderrTail.slice(-600)}`,
        );
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#wake.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
  }

  /** The first frame of `type` (and `subtype`, when given) at index >= `from`. */
  next(type: string, subtype?: string, from = 0): Promise<CliFrame> {
    const what = subtype ? `${type}/${subtype}` : type;
    return this.waitFor(
      (f) => f.type === type && (subtype === undefined || f.subtype === subtype),
      what,
      from,
    );
  }
}

/** A spawned process and its frame log. */
export interface Spawned {
  proc: ClaudeProcess;
  log: FrameLog;
}

/** A temp world with a fake API; `dispose` closes processes, the API and removes the dirs. */
export interface CliHarness extends AsyncDisposable {
  api: FakeApi;
  root: string;
  home: string;
  configDir: string;
  tmpDir: string;
  /** The working directory (a real path, so transcript slugs match). */
  cwd: string;
  spawn(o?: { argv?: ArgvOptions } & Partial<ClaudeSpawnOptions>): Spawned;
  dispose(): Promise<void>;
}

/** Builds the harness. Only PATH is inherited from this machine; HOME points into the temp dir. */
export async function startHarness(script: ScriptInput = {}): Promise<CliHarness> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-claude-test-" }));
  const [home, configDir, tmpDir, cwd] = ["home", "config", "tmp", "project"].map((d) =>
    `${root}/${d}`
  );
  for (const d of [home, configDir, tmpDir, cwd]) await Deno.mkdir(d);
  const api = await startFakeApi(script);
  const spawned: ClaudeProcess[] = [];
  const h: CliHarness = {
    api,
    root,
    home,
    configDir,
    tmpDir,
    cwd,
    spawn(o = {}) {
      const proc = spawnOfflineCli(h, api.url, { closeGraceMs: 3_000, ...o });
      spawned.push(proc);
      return { proc, log: new FrameLog(proc) };
    },
    async dispose() {
      await Promise.all(spawned.map((p) => p.close()));
      await api.close();
      await Deno.remove(root, { recursive: true });
    },
    [Symbol.asyncDispose]() {
      return h.dispose();
    },
  };
  return h;
}

/** The dirs a CLI runs in: its HOME, config dir, temp dir and working dir. */
export interface CliWorld {
  home: string;
  configDir: string;
  tmpDir: string;
  cwd: string;
}

/**
 * The CLI as the harness starts it, against the Messages API at `apiUrl`: only PATH is inherited
 * from this machine, everything else lives in `world`. Also what fold_cost's bare relay arm
 * starts, against the bench's own fake API process.
 */
export function spawnOfflineCli(
  world: CliWorld,
  apiUrl: string,
  o: { argv?: ArgvOptions } & Partial<ClaudeSpawnOptions> = {},
): ClaudeProcess {
  const { env } = buildChildEnv({
    inherited: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    accountEnv: {
      HOME: world.home,
      CLAUDE_CODE_TMPDIR: world.tmpDir,
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: "sk-test",
      CLAUDE_CODE_MAX_RETRIES: "0",
    },
    configDir: world.configDir,
    cwd: world.cwd,
  });
  return ClaudeProcess.spawn({ args: buildArgv(o.argv), cwd: world.cwd, env, ...o });
}

/** The `result` frames, for counting turns. */
export function isResult(f: CliFrame): boolean {
  return f.type === "result";
}
