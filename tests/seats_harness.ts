import type { Slot } from "../protocol/mod.ts";
import { memoryLogger } from "../server/log.ts";
import { type RunningServer, startServer } from "../server/server.ts";
import type { TickClock } from "../server/board/cron.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { keptDenoCache } from "./harness.ts";
export { until } from "./harness.ts";
export {
  chatOf,
  command,
  homeLifecycle,
  nextUpdate,
  subscribeSeat,
  typedUpdateOf,
  updateOf,
} from "./seat_wire.ts";

/**
 * The seat tests' world: a temp dir holding each project's working tree, the CLI's config dir,
 * HOME and tmp dir; the fake Messages API running as its own process with a script from
 * fixtures/seats/; and a forge.toml built from fixtures/seats/forge.toml that points every seat
 * at it. A forge can be started on it as a process, the way a person starts one, as often as a
 * test needs (a restart keeps the config dir and so the state dir). `dispose` ends everything.
 */

const REPO = new URL("..", import.meta.url).pathname;
const FIXTURES = `${REPO}fixtures/seats`;

export interface SeatWorld extends AsyncDisposable {
  dir: string;
  apiUrl: string;
  configPath: string;
  /** The seat of a project's lead. */
  lead(project: string): Slot;
  projectDir(project: string): string;
  /**
   * `deno task start --config <configPath> --port 0`, as a person runs it; `env` adds to the
   * launcher's environment (the vault test's CA: `DENO_CERT`); a `port` the test took earlier
   * (a restart on the same address) is passed as `--port`.
   */
  startForge(env?: Record<string, string>, port?: number): Promise<RunningForge>;
  /**
   * The server in this process (socket tier): it can read /proc, as the test can. `cronClock`
   * is the clock the cron tick runs on (a test's ManualClock).
   */
  startInProcess(opts?: { cronClock?: TickClock }): Promise<InProcessForge>;
  /** Main-loop requests the fake API has answered so far (its request log). */
  apiRequests(): Promise<{ kind: string; reply: string }[]>;
  dispose(): Promise<void>;
}

export interface InProcessForge {
  server: RunningServer;
  log: ReturnType<typeof memoryLogger>;
  ready(): Promise<ForgeClient>;
  stop(): Promise<void>;
}

export interface RunningForge extends AsyncDisposable {
  port: number;
  url: string;
  stderr(): string;
  connect(): Promise<ForgeClient>;
  /** Connects and reads past the greeting and the settings frame. */
  ready(): Promise<ForgeClient>;
  /** The pid of the forge process itself (main.ts under the launcher). */
  serverPid(): number;
  /** SIGTERM and the exit status. */
  stop(): Promise<Deno.CommandStatus>;
}

/** A script file, or one built from the world's dir (a script that names a project's path). */
export type ScriptSource = string | ((dir: string) => unknown);

export async function seatWorld(
  projects: { name: string; autoStart?: boolean }[],
  script: ScriptSource = `${FIXTURES}/script.json`,
): Promise<SeatWorld> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-seats-" }));
  for (const sub of ["home", "claude", "tmp", "forge", ...projects.map((p) => p.name)]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  if (typeof script === "function") {
    await Deno.writeTextFile(`${dir}/script.json`, JSON.stringify(script(dir)));
    script = `${dir}/script.json`;
  }
  const api = await startApi(script, `${dir}/api.log`);
  const template = await Deno.readTextFile(`${FIXTURES}/forge.toml`);
  const text = template.replaceAll("@API@", api.url).replaceAll("@DIR@", dir) +
    projects.map((p) =>
      `\n[[orgs.projects]]\nname = "${p.name}"\npath = "${dir}/${p.name}"\n` +
      `auto_start = ${p.autoStart ?? true}\n`
    ).join("");
  const configPath = `${dir}/forge/forge.toml`;
  await Deno.writeTextFile(configPath, text);
  const forges: { stop(): Promise<unknown> }[] = [];
  // Every client validates each frame against protocol/'s schemas; drift fails the test at the end.
  const clients: ForgeClient[] = [];
  const world: SeatWorld = {
    dir,
    apiUrl: api.url,
    configPath,
    lead: (project) => ({ org: "Acme", project, label: "lead" }),
    projectDir: (project) => `${dir}/${project}`,
    async startForge(env = {}, port = 0) {
      const forge = await startForge(configPath, dir, clients, env, port);
      forges.push(forge);
      return forge;
    },
    async startInProcess(opts = {}) {
      const log = memoryLogger();
      const server = await startServer({ configPath, port: 0, gatewayPort: 0, log, ...opts });
      const mine: ForgeClient[] = [];
      let stopped: Promise<void> | null = null;
      const forge: InProcessForge = {
        server,
        log,
        async ready() {
          const c = await ForgeClient.connect(server.url, { validate: true });
          clients.push(c);
          mine.push(c);
          await c.next((m) => m.kind === "greeting");
          await c.next((m) => m.kind === "settings");
          return c;
        },
        stop() {
          stopped ??= (async () => {
            await Promise.all(mine.map((c) => c.close().catch(() => {})));
            await server.stop();
          })();
          return stopped;
        },
      };
      forges.push(forge);
      return forge;
    },
    async apiRequests() {
      const text = await Deno.readTextFile(`${dir}/api.log`).catch(() => "");
      // The fake API appends a request as one write of its line and "\n", which a read may
      // meet half-copied (a large body): only lines the newline has reached are whole.
      const whole = text.slice(0, text.lastIndexOf("\n") + 1);
      return whole.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    },
    async dispose() {
      for (const f of forges) await f.stop();
      await api.stop();
      await Deno.remove(dir, { recursive: true });
      const drift = clients.flatMap((c) => c.schemaErrors);
      if (drift.length > 0) {
        throw new Error(`frames off the protocol schema: ${drift.slice(0, 5).join(" | ")}`);
      }
    },
    [Symbol.asyncDispose]() {
      return world.dispose();
    },
  };
  return world;
}

/**
 * The fake API as its own process: `main.ts --script FILE [--log FILE]`, which prints
 * `LISTENING <port>`. Without `log` it keeps no request log (and may write nothing).
 */
export async function startApi(script: string, log?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      ...(log ? ["--allow-write"] : []),
      "fixtures/fake_api/main.ts",
      "--script",
      script,
      ...(log ? ["--log", log] : []),
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const port = await readPort(child.stdout, /LISTENING (\d+)/);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
    },
  };
}

async function startForge(
  configPath: string,
  dir: string,
  all: ForgeClient[],
  env: Record<string, string> = {},
  listenOn = 0,
): Promise<RunningForge> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "start", "--config", configPath, "--port", String(listenOn)],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
    env: { ...keptDenoCache(), HOME: `${dir}/home`, CLAUDE_CONFIG_DIR: `${dir}/claude`, ...env },
  }).spawn();
  let err = "";
  const drained = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const port = await readPort(child.stdout, /LISTENING \S+:(\d+)/).finally(() =>
    clearTimeout(timer)
  );
  const clients: ForgeClient[] = [];
  let stopped: Promise<Deno.CommandStatus> | null = null;
  const forge: RunningForge = {
    port,
    url: `ws://127.0.0.1:${port}/socket`,
    stderr: () => err,
    async connect() {
      const c = await ForgeClient.connect(forge.url, { validate: true });
      clients.push(c);
      all.push(c);
      return c;
    },
    async ready() {
      const c = await forge.connect();
      await c.next((m) => m.kind === "greeting");
      await c.next((m) => m.kind === "settings");
      return c;
    },
    serverPid() {
      // The launcher runs main.ts as its one child.
      const launcher = childrenOf(child.pid);
      const main = launcher.flatMap((pid) => [pid, ...childrenOf(pid)]).find((pid) =>
        commandOf(pid).includes("main.ts")
      );
      if (!main) throw new Error("no main.ts process under the launcher");
      return main;
    },
    stop() {
      stopped ??= (async () => {
        await Promise.all(clients.map((c) => c.close().catch(() => {})));
        try {
          child.kill("SIGTERM");
        } catch { /* gone */ }
        const status = await child.status;
        await drained;
        return status;
      })();
      return stopped;
    },
    async [Symbol.asyncDispose]() {
      await forge.stop();
    },
  };
  return forge;
}

/** The port a process prints on stdout, the first group of `re`; the rest is drained. */
export async function readPort(stream: ReadableStream<Uint8Array>, re: RegExp): Promise<number> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`exited before listening: ${out}`);
    out += value;
    const m = re.exec(out);
    if (m) {
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })();
      return Number(m[1]);
    }
  }
}

/** Direct children of a process, from /proc. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) {
        out.push(Number(e.name));
      }
    } catch { /* gone */ }
  }
  return out;
}

export function commandOf(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** A process's working directory, or "" when it is gone. */
export function cwdOf(pid: number): string {
  try {
    return Deno.readLinkSync(`/proc/${pid}/cwd`);
  } catch {
    return "";
  }
}

/** Whether a process still exists (a zombie counts: it is not reaped). */
export function alive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}
