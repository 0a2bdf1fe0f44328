/**
 * The web program's options, read and checked before anything starts.
 *
 *   --forge URL   the forge socket the page speaks to (default ws://127.0.0.1:8790/socket)
 *   --port N      the page's port (0 picks a free one; default 8791)
 *   --bind ADDR   the address served: loopback, or with TLS an address of a private network
 *   --cert PATH --key PATH   serve https (PEM files), relaying the page's socket to --forge
 */
import { isLoopbackHost, isPrivateHost } from "../../server/origin.ts";

export interface WebOptions {
  forge: string;
  port: number;
  bind: string;
  /** The TLS certificate and key files; both or neither. */
  tls: { cert: string; key: string } | null;
}

const FLAGS = ["--forge", "--port", "--bind", "--cert", "--key"];

export function parseWebArgs(args: string[]): WebOptions {
  const seen = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (!FLAGS.includes(flag)) {
      throw new Error(`forge web: unknown option ${flag} (${FLAGS.join(", ")})`);
    }
    if (value === undefined) throw new Error(`forge web: ${flag} needs a value`);
    seen.set(flag, value);
  }
  const opts: WebOptions = {
    forge: seen.get("--forge") ?? "ws://127.0.0.1:8790/socket",
    port: Number(seen.get("--port") ?? 8791),
    bind: seen.get("--bind") ?? "127.0.0.1",
    tls: null,
  };
  const [cert, key] = [seen.get("--cert"), seen.get("--key")];
  if ((cert === undefined) !== (key === undefined)) {
    throw new Error("forge web: --cert and --key go together (a certificate and its key)");
  }
  if (cert !== undefined && key !== undefined) opts.tls = { cert, key };
  if (!/^wss?:\/\//.test(opts.forge)) {
    throw new Error(`forge web: --forge ${opts.forge} is not a ws:// or wss:// socket URL`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`forge web: --port ${seen.get("--port")} is not a port number`);
  }
  // spec: Reaching it - forge is reached over loopback or a private network, never publicly.
  if (!isLoopbackHost(opts.bind)) {
    if (!isPrivateHost(opts.bind)) {
      throw new Error(
        `forge web: --bind ${opts.bind} is not loopback or a private network's address ` +
          "(10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); the page is never served publicly",
      );
    }
    if (!opts.tls) {
      throw new Error(
        `forge web: --bind ${opts.bind} needs --cert and --key: a browser withholds the ` +
          "microphone, service workers and notifications from a plain http page on another machine",
      );
    }
  }
  return opts;
}

/** The host and port a socket URL dials, as `--allow-net` names it. */
export function socketHostPort(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === "wss:" ? "443" : "80")}`;
}
