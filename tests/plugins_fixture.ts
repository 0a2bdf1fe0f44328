import {
  type ExtensionsRead,
  PLUGINS_UPDATES,
  type PluginsUpdateFields,
  type PluginsUpdateName,
} from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

/**
 * Local marketplaces for the plugin tests, never the network: a plain directory, or a git repo
 * served over loopback smart HTTP by `git http-backend` behind a tiny Deno server (the CLI clones
 * shallow, which a dumb HTTP server cannot serve; `file://` it refuses: both seen on 2.1.332).
 */

export interface PluginSpec {
  name: string;
  version: string | null;
  /** Give it one of every component kind (skill, command, agent, hook, mcp). */
  full?: boolean;
  /** LSP servers declared in the marketplace entry: server -> command. */
  lsp?: Record<string, string>;
}

const write = async (path: string, text: string) => {
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(path, text);
};

/** Writes a marketplace named `name` at `dir` offering `plugins`. */
export async function writeMarketplace(dir: string, name: string, plugins: PluginSpec[]) {
  const entries = plugins.map((p) => ({
    name: p.name,
    source: `./plugins/${p.name}`,
    description: `${p.name} for tests`,
    ...(p.version ? { version: p.version } : {}),
    ...(p.lsp
      ? {
        lspServers: Object.fromEntries(
          Object.entries(p.lsp).map(([s, command]) => [s, {
            command,
            args: ["--stdio"],
            extensionToLanguage: { [`.${s}`]: s },
          }]),
        ),
      }
      : {}),
  }));
  await write(
    `${dir}/.claude-plugin/marketplace.json`,
    JSON.stringify({ name, owner: { name: "Tests" }, plugins: entries }, null, 2),
  );
  for (const p of plugins) {
    const root = `${dir}/plugins/${p.name}`;
    const manifest = { name: p.name, description: `${p.name} for tests` };
    await write(
      `${root}/.claude-plugin/plugin.json`,
      JSON.stringify(p.version ? { ...manifest, version: p.version } : manifest),
    );
    if (!p.full) continue;
    await write(
      `${root}/skills/greet/SKILL.md`,
      "---\nname: greet\ndescription: Greet.\n---\nHi.\n",
    );
    await write(`${root}/commands/wave.md`, "---\ndescription: Wave\n---\nWave.\n");
    await write(`${root}/agents/greeter.md`, "---\nname: greeter\ndescription: Greets.\n---\nG.\n");
    await write(
      `${root}/hooks/hooks.json`,
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "true" }] }] },
      }),
    );
    await write(`${root}/.mcp.json`, JSON.stringify({ mcpServers: { m: { command: "true" } } }));
  }
}

/** Moves one plugin of a marketplace at `dir` to `version` (its entry and its plugin.json). */
export async function bumpVersion(dir: string, plugin: string, version: string) {
  const path = `${dir}/.claude-plugin/marketplace.json`;
  const m = JSON.parse(await Deno.readTextFile(path));
  for (const p of m.plugins) if (p.name === plugin) p.version = version;
  await Deno.writeTextFile(path, JSON.stringify(m, null, 2));
  const pj = `${dir}/plugins/${plugin}/.claude-plugin/plugin.json`;
  await Deno.writeTextFile(
    pj,
    JSON.stringify({ ...JSON.parse(await Deno.readTextFile(pj)), version }),
  );
}

export async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

export interface GitServer {
  url: string;
  /** Holds every request from now until `release`; `held` resolves once one is waiting. */
  hold(): { held: Promise<void>; release(): void };
  [Symbol.asyncDispose](): Promise<void>;
}

/** A loopback smart-HTTP git server over every bare repo under `root`. */
export function gitServer(root: string): GitServer {
  let gate: { open: Promise<void>; arrived: () => void } | null = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (gate) {
      gate.arrived();
      await gate.open;
    }
    const url = new URL(req.url);
    const body = new Uint8Array(await req.arrayBuffer());
    const child = new Deno.Command("git", {
      args: ["http-backend"],
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers.get("content-type") ?? "",
        CONTENT_LENGTH: String(body.length),
        GIT_PROTOCOL: req.headers.get("git-protocol") ?? "",
        REMOTE_ADDR: "127.0.0.1",
      },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(body);
    await w.close();
    const raw = (await child.output()).stdout;
    // CGI answer: headers, a blank line, the body.
    let split = 0;
    while (
      split + 3 < raw.length &&
      !(raw[split] === 13 && raw[split + 1] === 10 && raw[split + 2] === 13 &&
        raw[split + 3] === 10)
    ) split++;
    const headers = new Headers();
    let status = 200;
    for (const line of new TextDecoder().decode(raw.slice(0, split)).split("\r\n")) {
      const c = line.indexOf(":");
      if (c < 0) continue;
      const [k, v] = [line.slice(0, c).trim(), line.slice(c + 1).trim()];
      if (k.toLowerCase() === "status") status = Number(v.split(" ")[0]);
      else headers.append(k, v);
    }
    return new Response(raw.slice(split + 4), { status, headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    hold() {
      const held = Promise.withResolvers<void>();
      const open = Promise.withResolvers<void>();
      gate = { open: open.promise, arrived: held.resolve };
      return {
        held: held.promise,
        release() {
          gate = null;
          open.resolve();
        },
      };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** Makes `src` a git repo with one commit and publishes it bare as `<srv>/<name>.git`. */
export async function publishGit(src: string, srv: string, name: string): Promise<void> {
  await git(src, "init", "-q", "-b", "main", ".");
  await git(src, "add", "-A");
  await git(src, "commit", "-qm", "v1");
  await Deno.mkdir(srv, { recursive: true });
  await git(srv, "clone", "-q", "--bare", src, `${srv}/${name}.git`);
}

/** Commits everything in `src` and pushes it to the bare repo. */
export async function pushGit(src: string, srv: string, name: string, message: string) {
  await git(src, "add", "-A");
  await git(src, "commit", "-qm", message);
  await git(src, "push", "-q", `${srv}/${name}.git`, "main");
}

/** A forge.toml whose one account's config dir is `configDir`; extra lines appended. */
export function pluginsConfig(configDir: string, extra = ""): string {
  return `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\nconfig_dir = "${configDir}"\n` +
    `[[orgs]]\nname = "Acme"\naccounts = ["A"]\n` +
    `[[orgs.projects]]\nname = "proj"\npath = "/nonexistent/forge-plugins-test"\n${extra}`;
}

/** Subscribes to extensions and returns its read, checked against the protocol schema. */
export async function readExtensions(c: ForgeClient): Promise<ExtensionsRead> {
  c.send({ kind: "subscribe", what: "extensions" });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "extensions");
  return snap.data as ExtensionsRead;
}

/** The next plugins_* update named `name` (matching `pred`), its fields checked by its schema. */
export async function nextPlugins<N extends PluginsUpdateName>(
  c: ForgeClient,
  name: N,
  pred: (f: PluginsUpdateFields<N>) => boolean = () => true,
  ms = 60_000,
): Promise<PluginsUpdateFields<N>> {
  const m = await c.next((m) => {
    const u = m.update as Record<string, unknown> | undefined;
    return m.kind === "update" && !!u && typeof u === "object" && name in u &&
      pred(u[name] as PluginsUpdateFields<N>);
  }, ms);
  return PLUGINS_UPDATES[name].parse(
    (m.update as Record<string, unknown>)[name],
  ) as PluginsUpdateFields<N>;
}

/** Runs the real CLI by hand under `configDir`, as a person at a shell would. */
export function claudeByHand(configDir: string, ...args: string[]): Promise<string> {
  return claudeIn(configDir, configDir, ...args);
}

/** The same, with the shell in `cwd` (a project, for `--scope project`). */
export async function claudeIn(configDir: string, cwd: string, ...args: string[]): Promise<string> {
  const bin = Deno.env.get("FORGE_CLAUDE_BIN");
  if (!bin) throw new Error("FORGE_CLAUDE_BIN is unset: run the tests through tools/deno.sh");
  await Deno.mkdir(configDir, { recursive: true });
  await Deno.mkdir(cwd, { recursive: true });
  const out = await new Deno.Command(bin, {
    args,
    cwd,
    env: {
      CLAUDE_CONFIG_DIR: configDir,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`claude ${args.join(" ")}: ${text} ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}
