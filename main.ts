import { configPath } from "./server/config/load.ts";
import { bootFailureLines, inPhase } from "./server/boot/failure.ts";
import { checkFlags, flagOf, portFlag } from "./server/boot/flags.ts";
import { guardProcess } from "./server/crash_guard.ts";
import { type ServerOptions, startServer } from "./server/server.ts";
import { timersFromEnv } from "./server/timers.ts";

/**
 * forge: flags -> config -> workspace -> registry -> serve.
 * Flags: `--config PATH` (else $FORGE_CONFIG, $CLAUDE_CONFIG_DIR/forge/forge.toml,
 * ~/.claude/forge/forge.toml), `--port N` (overrides [server] port; 0 picks a free one) and
 * `--gateway-port N`; anything else on the command line is refused (boot/flags.ts).
 * Prints `LISTENING <host>:<port>` on stdout once the socket is bound (`NOT LISTENING: ...` when
 * `server.enabled` is false). A boot that fails prints its sentence on stderr, naming the phase
 * and what was wrong in forge's words (server/boot/failure.ts), and exits 1. `test`: what a
 * spawned test adds, running forge as a person does: manifests beside the real ones, the clock
 * the subsystems' start limit runs on.
 */
export async function runForge(
  args: readonly string[],
  test: Pick<ServerOptions, "extra" | "startClock"> = {},
) {
  try {
    const flags = await inPhase("flags", null, () => {
      checkFlags(args);
      return {
        configPath: configPath(flagOf(args, "--config"), (n) => Deno.env.get(n)),
        port: portFlag(args, "--port"),
        gatewayPort: portFlag(args, "--gateway-port"),
      };
    });
    const server = await startServer({
      ...flags,
      ...test,
      timers: timersFromEnv(Deno.env.get("FORGE_TEST_TIMERS")),
      // From the moment the log exists, a failure nothing caught - a subsystem's, during the boot
      // too - is logged and the server serves on (crash_guard.ts).
      guard: (log) => guardProcess(globalThis, log),
    });
    // Before the line below: whoever reads it may signal at once, and a signal with no listener
    // yet would end the process with no shutdown.
    const shutdown = async () => {
      await server.stop();
      Deno.exit(0);
    };
    Deno.addSignalListener("SIGTERM", shutdown);
    Deno.addSignalListener("SIGINT", shutdown);
    // A config path with no file runs on the defaults (a settings save writes the file); said
    // here too, so a misspelt --config is not mistaken for an empty fleet.
    if (!server.config.loaded.exists) {
      console.error(
        `forge: no file at ${flags.configPath}: running on the built-in defaults ` +
          "(the first settings save writes it)",
      );
    }
    // `server.enabled = false`: no socket, and the line says so instead of an address.
    console.log(
      server.serving
        ? `LISTENING ${server.addr.hostname}:${server.addr.port}`
        : "NOT LISTENING: server.enabled is false in forge.toml; the rest of forge runs",
    );
  } catch (err) {
    for (const line of bootFailureLines(err)) console.error(line);
    Deno.exit(1);
  }
}

if (import.meta.main) await runForge(Deno.args);
