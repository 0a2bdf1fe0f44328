import type { Home } from "../net/narrow.ts";

/**
 * The words for what the home carries beside the fleet, each null when there is nothing to say.
 * spec: What a subject carries > home (service_status: "the statuspage's last answer, null for
 * healthy or unreachable"; cli_version; connectors).
 */

/** The status page's outage: its severity and its own description. */
export function serviceWords(home: Pick<Home, "service_status">): string | null {
  const status = home.service_status;
  if (!status || status.severity === "none" || status.severity === "unreachable") return null;
  return `Service status (${status.severity}): ${status.message}`;
}

/** A newer claude than the one the seats run: latest as forge last read it, beside installed. */
export function cliWords(home: Pick<Home, "cli_version">): string | null {
  const { installed, latest } = home.cli_version;
  if (latest === null || latest === installed) return null;
  return installed === null
    ? `claude ${latest} is out; forge could not read the installed version`
    : `claude ${latest} is out; the seats run ${installed}`;
}

/**
 * The connectors' liveness for the board page: Gotify connected, or why not in forge's words
 * (`gotify.error`, or off when forge.toml has no [gotify]); Slack's workspaces connected (off when
 * it names none), and the store's own failure to load the subscriptions (`slack.load_error`).
 */
export function connectorWords(connectors: Home["connectors"]): string {
  const { gotify, slack } = connectors;
  const gotifyWords = gotify.connected
    ? "Gotify connected"
    : !gotify.configured
    ? "Gotify off (no [gotify] in forge.toml)"
    : `Gotify not connected${gotify.error ? `: ${gotify.error}` : ""}`;
  const pairs = slack.connected_workspaces;
  const up = pairs.filter(([, connected]) => connected).length;
  // No workspace is Slack left off, said as Gotify's is, not a count of nothing.
  const slackWords =
    (pairs.length === 0
      ? "Slack off (no [[slack]] in forge.toml)"
      : `Slack ${up} of ${pairs.length} workspace${pairs.length === 1 ? "" : "s"} connected`) +
    (slack.load_failed
      ? `; the stored subscriptions failed to load${
        slack.load_error ? `: ${slack.load_error}` : ""
      }`
      : "");
  return `${gotifyWords} · ${slackWords}`;
}
