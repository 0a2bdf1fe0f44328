/**
 * forge's web client program: bundles the page (tools/web/app/, offline, with `deno bundle`) and
 * serves it, pointed at a forge socket. The page speaks only the socket; this process serves
 * files and the one fact the page cannot know, the forge URL. With `--cert` and `--key` it serves
 * https (a secure context, which a browser needs before it gives the microphone, a service
 * worker or notifications to a page from another machine) and carries the page's socket to
 * forge (relay.ts).
 *
 *   tools/deno.sh task web [--forge ws://127.0.0.1:8790/socket] [--port 8791] [--bind 127.0.0.1]
 *                          [--cert PATH --key PATH]
 *
 * Prints `WEB <url>` once it listens (the tests read the port from it).
 */
import { FORGE_RELEASE } from "../../protocol/mod.ts";
import { bundleApp } from "./bundle.ts";
import { certOrigins } from "./cert_origins.ts";
import { fileHeaders } from "./headers.ts";
import { parseWebArgs, type WebOptions } from "./options.ts";
import { relaySocket } from "./relay.ts";
import { iconFile, indexHtml, MANIFEST, shellFiles, workerScript } from "./shell.ts";

const HERE = new URL(".", import.meta.url).pathname;

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
const STYLES = ["page", "conversation", "panes", "features", "forges", "phone"];
async function pageStyles(): Promise<string> {
  const parts = await Promise.all(
    STYLES.map((name) => Deno.readTextFile(`${HERE}app/styles/${name}.css`)),
  );
  return parts.join("\n");
}

type Body = Uint8Array<ArrayBuffer> | string;
type Route = [type: string, body: () => Promise<Body> | Body];

/** A file of the split bundle by its own name (`/chunk-<hash>.js`, `/chat-<hash>.js`, the maps). */
function chunk(dir: string, path: string): Route | null {
  const name = /^\/((?:main|[a-z_]+-[A-Za-z0-9_]+)\.js(?:\.map)?)$/.exec(path)?.[1];
  if (!name) return null;
  const type = name.endsWith(".map") ? "application/json" : "text/javascript; charset=utf-8";
  return [type, () => Deno.readFile(`${dir}/${name}`)];
}

/**
 * The line that says where the page is served and what forge needs: over TLS, the origins the
 * certificate's names make (cert_origins.ts), which forge's `[server] allowed_origins` must list.
 */
function served(opts: WebOptions, host: string, port: number, cert: string | null) {
  const scheme = opts.tls ? "https" : "http";
  const url = `${scheme}://${host}:${port}/`;
  if (!opts.tls || cert === null) return `WEB ${url} (forge ${opts.forge}`;
  const origins = certOrigins(cert, port);
  const list = origins.length > 0
    ? `${origins.map((o) => JSON.stringify(o)).join(", ")} (the page's origin${
      origins.length > 1 ? "s" : ""
    }, from the certificate's names)`
    : `the page's origin (https://, the name the browser opens it by, :${port})`;
  return `WEB ${url} (relaying /socket to forge ${opts.forge}; forge's [server] allowed_origins ` +
    `must list ${list}`;
}

/**
 * The server `serve` starts, or an error in forge's words naming the address and the way out:
 * the engine's own ("Address already in use (os error 98)") names neither.
 */
function listening(serve: () => Deno.HttpServer, opts: WebOptions): Deno.HttpServer {
  const where = `${opts.bind.includes(":") ? `[${opts.bind}]` : opts.bind}:${opts.port}`;
  try {
    return serve();
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `forge web: ${where} is taken (another forge web?): start with --port N (0 picks a free one)`,
      );
    }
    if (err instanceof Deno.errors.AddrNotAvailable) {
      throw new Error(`forge web: ${where}: --bind ${opts.bind} is not an address of this machine`);
    }
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable) {
      throw new Error(
        `forge web is not allowed to listen on ${where} (a port below 1024?): choose another --port`,
      );
    }
    throw err;
  }
}

async function main() {
  const opts = parseWebArgs(Deno.args);
  const started = performance.now();
  const tls = opts.tls && {
    cert: await Deno.readTextFile(opts.tls.cert),
    key: await Deno.readTextFile(opts.tls.key),
  };
  const files = await bundleApp();
  const build = await clientBuild();
  // Under TLS the page's socket is this server's own `/socket`, carried to forge.
  const config = JSON.stringify({ forge: tls ? "/socket" : opts.forge, client_build: build });
  const worker = await workerScript(
    files.worker,
    `${build}-${Date.now().toString(36)}`,
    shellFiles(files.chunks),
  );
  // The conversation's chunk is what a person opens next: fetched while the home draws.
  const index = indexHtml(files.chunks.filter((c) => c.startsWith("/chat-")));
  const routes: Record<string, Route> = {
    "/": ["text/html; charset=utf-8", () => index],
    "/index.html": ["text/html; charset=utf-8", () => index],
    "/app.js": ["text/javascript; charset=utf-8", () => Deno.readFile(files.app)],
    "/sw.js": ["text/javascript; charset=utf-8", () => worker],
    "/manifest.webmanifest": ["application/manifest+json", () => MANIFEST],
    "/xterm.css": ["text/css; charset=utf-8", () => Deno.readFile(files.xtermCss)],
    "/hljs.css": ["text/css; charset=utf-8", () => Deno.readFile(files.hljsCss)],
    "/style.css": ["text/css; charset=utf-8", pageStyles],
    "/config.json": ["application/json", () => config],
  };
  const server = listening(() =>
    Deno.serve({
      hostname: opts.bind,
      port: opts.port,
      ...tls,
      onListen: ({ hostname, port }) => {
        const host = hostname.includes(":") ? `[${hostname}]` : hostname;
        const took = Math.round(performance.now() - started);
        console.log(`${served(opts, host, port, tls ? tls.cert : null)}; bundled in ${took} ms)`);
      },
    }, handler), opts);
  async function handler(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (tls && path === "/socket") return relaySocket(req, opts.forge);
    // Browsers ask for /favicon.ico whatever the shell links: it is the small icon.
    const icon = iconFile(path === "/favicon.ico" ? "/icons/icon-192.png" : path);
    const route: Route | null = icon
      ? ["image/png", () => Deno.readFile(icon)]
      : routes[path] ?? chunk(files.dir, path);
    if (!route) return new Response("not found", { status: 404 });
    let body: Body;
    try {
      body = await route[1]();
    } catch (err) {
      // A chunk-shaped name the bundle does not hold (or an icon that is not there) is a 404.
      if (err instanceof Deno.errors.NotFound) return new Response("not found", { status: 404 });
      throw err;
    }
    return new Response(body, { headers: fileHeaders(path, route[0]) });
  }
  Deno.addSignalListener("SIGTERM", () => server.shutdown());
  await server.finished;
}

if (import.meta.main) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    Deno.exit(1);
  });
}
