import type { LatestSchedule } from "../areas/cli_version.ts";
import type { StatusSchedule } from "../areas/service_status.ts";
import type { TickClock } from "../board/cron.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { AnyManifest } from "../subsystem.ts";
import type { Timers } from "../timers.ts";

// What a caller hands startServer (server/server.ts): the config file, the ports and the clocks
// tests override. Every boot phase reads it, so it sits below them all.

export interface ServerOptions {
  configPath: string;
  /** Overrides `[server] port` (tests pass 0 for a free port). */
  port?: number;
  /** Overrides `[gateway] port` (tests pass 0 for a free port). */
  gatewayPort?: number;
  timers?: Timers;
  log?: Logger;
  /** Extra manifests (tests add fakes); the real subsystems are always loaded. */
  extra?: readonly AnyManifest[];
  /** When the status page is read (default every five minutes); tests tick it themselves. */
  statusSchedule?: StatusSchedule;
  /** When npm is asked for the newest claude (default every six hours); tests tick it. */
  latestSchedule?: LatestSchedule;
  /**
   * Called once the boot's log exists, before any seat or subsystem runs: main.ts installs the
   * crash guard there, so a subsystem's failure nothing caught during the boot is logged rather
   * than ending the process (tests leave it out: there it fails the test that caused it).
   */
  guard?: (log: Logger) => void;
  /** The cron tick's clock (wall time); tests hand in one they move, so no test waits a minute. */
  cronClock?: TickClock;
  /**
   * The clock each subsystem's start limit (`[server] subsystem_start_secs`) runs on; tests hand
   * in one they move, so a start that never finishes is cut off without waiting a minute.
   */
  startClock?: Clock;
}
