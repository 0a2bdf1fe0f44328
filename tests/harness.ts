import { memoryLogger } from "../server/log.ts";
import { type RunningServer, startServer } from "../server/server.ts";
import type { LatestSchedule } from "../server/areas/cli_version.ts";
import type { StatusSchedule } from "../server/areas/service_status.ts";
import type { AnyManifest } from "../server/subsystem.ts";
import { DEFAULT_TIMERS, type Timers } from "../server/timers.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { RawSocket } from "./raw_socket.ts";

export interface TestServer {
  server: RunningServer;
  dir: string;
  configPath: string;
  log: ReturnType<typeof memoryLogger>;
  connect(opts?: { origin?: string; deflate?: boolean }): Promise<ForgeClient>;
  /** Connects and reads past the greeting and the settings frame. */
  ready(opts?: { origin?: string; deflate?: boolean }): Promise<ForgeClient>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts an in-process server on a free port over a temp config dir; disposing it stops the
 * server, closes every client it connected and removes the dir. Socket-tier tests use this.
 */
export async function testServer(
  configText: string | null,
  opts: {
    timers?: Partial<Timers>;
    extra?: readonly AnyManifest[];
    statusSchedule?: StatusSchedule;
    latestSchedule?: LatestSchedule;
  } = {},
): Promise<TestServer> {
  const dir = await Deno.makeTempDir({ prefix: "forge-test-" });
  const configPath = `${dir}/forge.toml`;
  if (configText !== null) await Deno.writeTextFile(configPath, configText);
  const log = memoryLogger();
  const server = await startServer({
    configPath,
    port: 0,
    gatewayPort: 0,
    log,
    timers: { ...DEFAULT_TIMERS, ...opts.timers },
    extra: opts.extra,
    // No socket-tier test reads a real status page: the poll runs only when a test ticks it.
    statusSchedule: opts.statusSchedule ?? (() => ({ stop: () => {} })),
    latestSchedule: opts.latestSchedule ?? (() => ({ stop: () => {} })),
  });
  const clients: ForgeClient[] = [];
  const connect = async (o: { origin?: string; deflate?: boolean } = {}) => {
    // Every frame a test reads is checked against protocol/'s schemas: the wire cannot drift.
    const c = await ForgeClient.connect(server.url, { ...o, validate: true });
    clients.push(c);
    return c;
  };
  return {
    server,
    dir,
    configPath,
    log,
    connect,
    async ready(o = {}) {
      const c = await connect(o);
      await c.next((m) => m.kind === "greeting");
      await c.next((m) => m.kind === "settings");
      return c;
    },
    async [Symbol.asyncDispose]() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      const drift = [
        ...clients.flatMap((c) => c.schemaErrors),
        ...RawSocket.schemaErrorsFor(server.addr.port),
      ];
      await server.stop();
      await Deno.remove(dir, { recursive: true });
      if (drift.length > 0) {
        throw new Error(`frames off the protocol schema: ${drift.slice(0, 5).join(" | ")}`);
      }
    },
  };
}

/**
 * Waits until `cond` holds, polling; for state with no event to await (a log record, a count, a
 * fresh read of a subject). The one copy every test uses (seats_harness re-exports it).
 */
/**
 * The environment a spawned forge keeps from this process while its HOME is a test's own: Deno's
 * cache dir, which lives under HOME unless DENO_DIR says otherwise. Without it every spawned forge
 * starts on an empty cache, fetching the npm registry's metadata again and compiling every module
 * afresh (about 0.5-0.9 s a start, and a network call a test should not depend on).
 */
export function keptDenoCache(): Record<string, string> {
  const set = Deno.env.get("DENO_DIR");
  if (set) return { DENO_DIR: set };
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return { DENO_DIR: `${cache}/deno` };
}

export async function until(
  cond: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = "condition",
): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await cond())) {
    if (performance.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs git in `cwd` as a fixed test identity; its stdout, trimmed. Throws with git's own words. */
export function git(cwd: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** Whether a path exists (a worktree, a file a test expects gone). */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

let replyId = 1;
/** Sends a command with `reply_to` (spec: command > reply_to) and answers its reply's body. */
export async function ask(
  c: ForgeClient,
  name: string,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const id = replyId++;
  // The fields as the test wrote them: a test of a refusal sends what protocol/'s types refuse.
  c.sendUntyped({ kind: "command", command: { [name]: fields }, reply_to: id });
  const reply = await c.next((m) => m.kind === "reply" && m.reply_to === id, 60_000);
  return reply.body as Record<string, unknown>;
}

export const SAMPLE_CONFIG = `
[server]
bind = "127.0.0.1"
port = 8790

[[accounts]]
display_name = "Fake"
provider = "anthropic"
models = ["claude-sonnet-4-5"]

[[orgs]]
name = "Acme"
accounts = ["Fake"]

[[orgs.projects]]
name = "proj"
path = "/nonexistent/forge-test-project"
`;

/** A PATH holding everything this machine's PATH does except `names`: a package gone missing. */
export async function pathWithout(...names: string[]): Promise<string> {
  const bin = await Deno.makeTempDir({ prefix: "forge-path-" });
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
    for (const e of entries) {
      if (names.includes(e.name)) continue;
      await Deno.symlink(`${dir}/${e.name}`, `${bin}/${e.name}`).catch(() => {});
    }
  }
  return bin;
}
