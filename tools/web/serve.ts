/**
 * forge's web client program: bundles the page (tools/web/app/, offline, with `deno bundle`) and
 * serves it on loopback, pointed at a forge socket. The page speaks only the socket; this process
 * serves files and the one fact the page cannot know, the forge URL.
 *
 *   tools/deno.sh task web [--forge ws://127.0.0.1:8790/socket] [--port 8791] [--bind 127.0.0.1]
 *
 * Prints `WEB http://<bind>:<port>/` once it listens (the tests read the port from it).
 */
import { FORGE_RELEASE } from "../../protocol/mod.ts";
import { bundleApp } from "./bundle.ts";

const HERE = new URL(".", import.meta.url).pathname;

interface Options {
  forge: string;
  port: number;
  bind: string;
}

function parseArgs(args: string[]): Options {
  const opts: Options = {
    forge: "ws://127.0.0.1:8790/socket",
    port: 8791,
    bind: "127.0.0.1",
  };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) {
      throw new Error(`forge web: ${flag} needs a value`);
    }
    if (flag === "--forge") opts.forge = value;
    else if (flag === "--port") opts.port = Number(value);
    else if (flag === "--bind") opts.bind = value;
    else {throw new Error(
        `forge web: unknown option ${flag} (--forge, --port, --bind)`,
      );}
    i++;
  }
  if (!/^wss?:\/\//.test(opts.forge)) {
    throw new Error(
      `forge web: --forge ${opts.forge} is not a ws:// or wss:// socket URL`,
    );
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`forge web: --port ${opts.port} is not a port number`);
  }
  // spec: Reaching it - the socket allows a page served on a loopback origin.
  if (!["127.0.0.1", "localhost", "::1"].includes(opts.bind)) {
    throw new Error(
      `forge web: --bind ${opts.bind} is not loopback; the page is served locally`,
    );
  }
  return opts;
}

async function clientBuild(): Promise<string> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", HERE, "rev-parse", "--short=7", "HEAD"],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (out.code === 0) {
      return `${FORGE_RELEASE}+${new TextDecoder().decode(out.stdout).trim()}`;
    }
  } catch { /* no git: the stamp says so */ }
  return `${FORGE_RELEASE}+unknown`;
}

/** The page's stylesheet, kept as files of one part each and served as one, in this order. */
const STYLES = ["page", "conversation", "panes", "features"];
async function pageStyles(): Promise<string> {
  const parts = await Promise.all(
    STYLES.map((name) => Deno.readTextFile(`${HERE}app/styles/${name}.css`)),
  );
  return parts.join("\n");
}

/** A file of the split bundle by its own name (`/chunk-<hash>.js`, `/chat-<hash>.js`, the maps). */
function chunk(
  dir: string,
  path: string,
): [string, () => Promise<Uint8Array<ArrayBuffer>>] | null {
  const name = /^\/((?:main|[a-z_]+-[A-Za-z0-9_]+)\.js(?:\.map)?)$/.exec(path)?.[1];
  if (!name) return null;
  const type = name.endsWith(".map") ? "application/json" : "text/javascript; charset=utf-8";
  return [type, () => Deno.readFile(`${dir}/${name}`)];
}

const INDEX = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>forge</title>
<link rel="stylesheet" href="/xterm.css">
<link rel="stylesheet" href="/hljs.css">
<link rel="stylesheet" href="/style.css">
</head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body>
</html>
`;

async function main() {
  const opts = parseArgs(Deno.args);
  const started = performance.now();
  const files = await bundleApp();
  const config = JSON.stringify({
    forge: opts.forge,
    client_build: await clientBuild(),
  });
  const routes: Record<
    string,
    [string, () => Promise<Uint8Array<ArrayBuffer> | string> | string]
  > = {
    "/": ["text/html; charset=utf-8", () => INDEX],
    "/index.html": ["text/html; charset=utf-8", () => INDEX],
    "/app.js": [
      "text/javascript; charset=utf-8",
      () => Deno.readFile(files.app),
    ],
    "/xterm.css": [
      "text/css; charset=utf-8",
      () => Deno.readFile(files.xtermCss),
    ],
    "/hljs.css": ["text/css; charset=utf-8", () => Deno.readFile(files.hljsCss)],
    "/style.css": ["text/css; charset=utf-8", pageStyles],
    "/config.json": ["application/json", () => config],
  };
  const server = Deno.serve({
    hostname: opts.bind,
    port: opts.port,
    onListen: ({ hostname, port }) => {
      const host = hostname.includes(":") ? `[${hostname}]` : hostname;
      console.log(
        `WEB http://${host}:${port}/ (forge ${opts.forge}; bundled in ${
          Math.round(performance.now() - started)
        } ms)`,
      );
    },
  }, async (req) => {
    const path = new URL(req.url).pathname;
    const route = routes[path] ?? chunk(files.dir, path);
    if (!route) return new Response("not found", { status: 404 });
    return new Response(await route[1](), {
      headers: { "content-type": route[0], "cache-control": "no-store" },
    });
  });
  Deno.addSignalListener("SIGTERM", () => server.shutdown());
  await server.finished;
}

if (import.meta.main) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    Deno.exit(1);
  });
}
