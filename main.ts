import { configPath } from "./server/config/load.ts";
import { guardProcess } from "./server/crash_guard.ts";
import { startServer } from "./server/server.ts";
import { timersFromEnv } from "./server/timers.ts";

/**
 * forge: flags -> config -> workspace -> registry -> serve.
 * Flags: `--config PATH` (else $FORGE_CONFIG, $CLAUDE_CONFIG_DIR/forge/forge.toml,
 * ~/.claude/forge/forge.toml) and `--port N` (overrides [server] port; 0 picks a free one).
 * Prints `LISTENING <host>:<port>` on stdout once the socket is bound (`NOT LISTENING: ...` when
 * `server.enabled` is false).
 */
function flag(name: string): string | null {
  const i = Deno.args.indexOf(name);
  if (i >= 0 && i + 1 < Deno.args.length) return Deno.args[i + 1];
  const inline = Deno.args.find((a) => a.startsWith(`${name}=`));
  return inline ? inline.slice(name.length + 1) : null;
}

if (import.meta.main) {
  const path = configPath(flag("--config"), (n) => Deno.env.get(n));
  const port = flag("--port");
  const gatewayPort = flag("--gateway-port");
  try {
    const server = await startServer({
      configPath: path,
      port: port === null ? undefined : Number(port),
      gatewayPort: gatewayPort === null ? undefined : Number(gatewayPort),
      timers: timersFromEnv(Deno.env.get("FORGE_TEST_TIMERS")),
    });
    // From here a failure nothing caught is logged and the server serves on (crash_guard.ts).
    guardProcess(globalThis, server.log);
    // `server.enabled = false`: no socket, and the line says so instead of an address.
    console.log(
      server.serving
        ? `LISTENING ${server.addr.hostname}:${server.addr.port}`
        : "NOT LISTENING: server.enabled is false in forge.toml; the rest of forge runs",
    );
    const shutdown = async () => {
      await server.stop();
      Deno.exit(0);
    };
    Deno.addSignalListener("SIGTERM", shutdown);
    Deno.addSignalListener("SIGINT", shutdown);
  } catch (err) {
    console.error(`forge: ${(err as Error).message}`);
    Deno.exit(1);
  }
}
