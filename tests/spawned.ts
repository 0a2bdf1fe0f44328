import { ForgeClient } from "../tools/client_lib.ts";
import { keptDenoCache } from "./harness.ts";

/** A forge started the way a person starts it: `deno task start --config ... --port 0`. */
export interface SpawnedForge {
  url: string;
  port: number;
  dir: string;
  configPath: string;
  stderr(): string;
  connect(opts?: { origin?: string; deflate?: boolean }): Promise<ForgeClient>;
  /** SIGTERM, then the exit status. */
  stop(): Promise<Deno.CommandStatus>;
  [Symbol.asyncDispose](): Promise<void>;
}

const REPO = new URL("..", import.meta.url).pathname;

export async function spawnForge(
  configText: string | null,
  env: Record<string, string> = {},
): Promise<SpawnedForge> {
  const dir = await Deno.makeTempDir({ prefix: "forge-spawned-" });
  const configPath = `${dir}/forge.toml`;
  if (configText !== null) await Deno.writeTextFile(configPath, configText);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "--quiet",
      "start",
      "--config",
      configPath,
      "--port",
      "0",
      "--gateway-port",
      "0",
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
    env: { ...keptDenoCache(), HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude`, ...env },
  }).spawn();
  let err = "";
  (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  let port = 0;
  while (port === 0) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`forge exited before listening:\n${err}`);
    out += value;
    const m = /LISTENING \S+:(\d+)/.exec(out);
    if (m) port = Number(m[1]);
  }
  clearTimeout(deadline);
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  const clients: ForgeClient[] = [];
  let stopped: Promise<Deno.CommandStatus> | null = null;
  const stop = () => {
    if (!stopped) {
      for (const c of clients) c.close().catch(() => {});
      child.kill("SIGTERM");
      stopped = child.status;
    }
    return stopped;
  };
  return {
    url: `ws://127.0.0.1:${port}/socket`,
    port,
    dir,
    configPath,
    stderr: () => err,
    async connect(opts = {}) {
      const c = await ForgeClient.connect(`ws://127.0.0.1:${port}/socket`, {
        ...opts,
        validate: true,
      });
      clients.push(c);
      return c;
    },
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true });
      const drift = clients.flatMap((c) => c.schemaErrors);
      if (drift.length > 0) {
        throw new Error(`frames off the protocol schema: ${drift.slice(0, 5).join(" | ")}`);
      }
    },
  };
}
