import { assertEquals } from "../../../../tests/assert.ts";
import { cliWords, connectorWords, serviceWords } from "./home_news.ts";

// spec: What a subject carries > home - service_status ("the statuspage's last answer, null for
// healthy or unreachable"), cli_version, and the connectors' liveness with their own errors.

Deno.test("home news: an outage is said with its severity; healthy and unreachable are not", () => {
  const words = (severity: string, message: string) =>
    serviceWords({
      service_status: { severity, message } as { severity: "major"; message: string },
    });
  assertEquals(words("major", "Elevated errors"), "Service status (major): Elevated errors");
  assertEquals(words("maintenance", "Planned work"), "Service status (maintenance): Planned work");
  assertEquals(words("none", "All Systems Operational"), null);
  assertEquals(words("unreachable", "the page answered HTTP 503"), null);
  assertEquals(serviceWords({ service_status: null }), null);
});

Deno.test("home news: a newer claude is said beside the installed one", () => {
  const cli = (installed: string | null, latest: string | null) =>
    cliWords({ cli_version: { installed, latest } });
  assertEquals(cli("2.0.1", "2.0.5"), "claude 2.0.5 is out; the seats run 2.0.1");
  assertEquals(
    cli(null, "2.0.5"),
    "claude 2.0.5 is out; forge could not read the installed version",
  );
  assertEquals(cli("2.0.5", "2.0.5"), null);
  // Not checked (check_latest off): nothing to say.
  assertEquals(cli("2.0.5", null), null);
});

Deno.test("home news: the connectors' liveness carries their own errors", () => {
  assertEquals(
    connectorWords({
      gotify: { connected: false, configured: true, error: "Gotify answered HTTP 401" },
      slack: {
        connected_workspaces: [["acme", true], ["beta", false]],
        load_failed: true,
        load_error: "the subscriptions file does not parse",
      },
    }),
    "Gotify not connected: Gotify answered HTTP 401 · Slack 1 of 2 workspaces connected; " +
      "the stored subscriptions failed to load: the subscriptions file does not parse",
  );
  assertEquals(
    connectorWords({
      gotify: { connected: false, configured: false, error: "no [gotify] in forge.toml" },
      slack: { connected_workspaces: [], load_failed: false, load_error: null },
    }),
    "Gotify off (no [gotify] in forge.toml) · Slack off (no [[slack]] in forge.toml)",
  );
  // A failure with no words of its own: the liveness is said without them.
  assertEquals(
    connectorWords({
      gotify: { connected: true, configured: true, error: null },
      slack: { connected_workspaces: [["acme", true]], load_failed: true, load_error: null },
    }),
    "Gotify connected · Slack 1 of 1 workspace connected; the stored subscriptions failed to load",
  );
});
