/**
 * `task web`: checks the options, then runs the web program (serve.ts) with exactly the
 * permissions they need: the network of the address it serves (and, under TLS, of the forge it
 * carries the socket to), reads of its own folder, the certificate and the key, writes of its
 * bundle's folder, running git and Deno (the bundler), and the two environment switches the
 * relay's WebSocket library reads.
 */
import { parseWebArgs, socketHostPort } from "./options.ts";

const HERE = new URL(".", import.meta.url).pathname.replace(/\/$/, "");

function flags(args: string[]): string[] {
  const opts = parseWebArgs(args);
  const net = [opts.bind.includes(":") ? `[${opts.bind}]` : opts.bind];
  if (opts.tls) net.push(socketHostPort(opts.forge));
  const read = [HERE, Deno.execPath(), ...(opts.tls ? [opts.tls.cert, opts.tls.key] : [])];
  return [
    `--allow-net=${net.join(",")}`,
    `--allow-read=${read.join(",")}`,
    `--allow-write=${HERE}/dist`,
    `--allow-run=git,${Deno.execPath()}`,
    // The relay's WebSocket library (relay.ts) reads its two switches at load.
    "--allow-env=WS_NO_BUFFER_UTIL,WS_NO_UTF_8_VALIDATE",
  ];
}

async function main(): Promise<number> {
  let granted: string[];
  try {
    granted = flags(Deno.args);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", `${HERE}/deno.json`, ...granted, `${HERE}/serve.ts`, ...Deno.args],
  }).spawn();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => child.kill(signal));
  }
  return (await child.status).code;
}

Deno.exit(await main());
