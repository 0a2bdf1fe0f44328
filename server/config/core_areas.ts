import { isLoopbackHost, isPrivateHost } from "../origin.ts";
import { type AreaSpec, grouped, key, type KeySpec, required } from "./spec.ts";

// The core's own config areas. Subsystems add theirs through their manifests (server/registry).
// Classes: restart = built once at boot; next_session = read when a session or connection opens;
// live = read on next use; not_read_yet = accepted, nothing consumes it yet. spec: The effective config.

const PERMISSION_MODES = ["default", "acceptEdits", "plan", "dontAsk", "auto", "bypassPermissions"];

// spec: Reaching it - loopback or a private network, never public: the network is the socket's
// access control, so a wildcard (0.0.0.0, ::), which listens on public addresses too, is refused.
const loopbackOrPrivate = (v: unknown) =>
  typeof v !== "string"
    ? null // its type is the key's own check
    : !/^[0-9a-fA-F:.]+$/.test(v) && v !== "localhost"
    ? "must be an IP address (or localhost)"
    : isLoopbackHost(v) || isPrivateHost(v)
    ? null
    : "must be a loopback or private network's address (127/8, ::1, 10/8, 172.16/12, " +
      "192.168/16, 100.64/10, fc00::/7): the socket has no authentication, so it is never " +
      "served on a public address or every address (0.0.0.0, ::)";

/**
 * An environment layer: a variable no process environment can carry (an empty name, a name with
 * `=` or a NUL byte in it, a value with a NUL byte) is refused here, by name, rather than
 * stopping every seat's launch later in the operating system's words.
 */
function envTable(pattern: string, note: string): KeySpec {
  const check = (v: unknown) => {
    if (typeof v !== "object" || v === null) return null; // its type is the key's own check
    for (const [name, value] of Object.entries(v)) {
      const shown = JSON.stringify(name);
      if (name === "") return "has a variable with an empty name";
      if (name.includes("=")) return `has a variable ${shown} whose name holds \`=\``;
      if (name.includes("\0")) return `has a variable ${shown} whose name holds a NUL byte`;
      if (typeof value === "string" && value.includes("\0")) {
        return `has a variable ${shown} whose value holds a NUL byte`;
      }
    }
    return null;
  };
  return { ...key.table(pattern, "next_session", note), check };
}

/** Anthropic's status page as Statuspage serves it: `[server] status_url`'s default. */
export const DEFAULT_STATUS_URL = "https://status.claude.com/api/v2/status.json";

export const CORE_AREAS: AreaSpec[] = [
  {
    id: "server",
    name: "server",
    note: "the socket a client reads through",
    keys: [
      key.bool("server.enabled", true, "restart", "serve the socket at all"),
      {
        ...key.string(
          "server.bind",
          "127.0.0.1",
          "restart",
          "the address the socket binds; loopback or a private network, never public",
        ),
        check: loopbackOrPrivate,
      },
      key.number("server.port", 8790, "restart", "the socket's port", [1, 65535]),
      key.list(
        "server.allowed_origins",
        [],
        "live",
        "extra browser page origins allowed to open the socket",
      ),
      key.number(
        "server.first_frame_cap_kb",
        2048,
        "next_session",
        "bound on a session snapshot's conversation page, in KiB",
        [16, 1048576],
      ),
      {
        ...key.string(
          "server.status_url",
          DEFAULT_STATUS_URL,
          "restart",
          "a Statuspage status.json polled for home's service_status; empty turns the poll off",
        ),
        check: (v) =>
          typeof v === "string" && v !== "" && !/^https?:\/\/[^/]+/.test(v)
            ? "must be an http(s) URL, or empty to turn the poll off"
            : null,
      },
      key.number(
        "server.tool_record_cap_kb",
        64,
        "next_session",
        "bound on one frame's tool_use_result record, in KiB",
        [1, 1048576],
      ),
      // A start reads a few state files, imports its modules and arms timers; its slow work (a
      // plugin update, a Slack poll, a model load) runs after it, in the background. On a 2-core
      // machine at load 7.6 the slowest start (voice, with dictate and notify on) took about 1 s,
      // importing included. 60 s leaves room for a cold module cache and a far worse machine, so a
      // healthy subsystem is never cut off; one still starting then waits on what will not come.
      key.number(
        "server.subsystem_start_secs",
        60,
        "restart",
        "how long one subsystem's start may take before it is turned off until forge restarts",
        [1, 3600],
      ),
    ],
  },
  {
    id: "client",
    name: "client",
    note: "a client's own look, handed over in the greeting; null means the built-in",
    keys: [
      key.enum(
        "client.mark",
        [
          "panes",
          "klin",
          "lanes",
          "f_slab",
          "split",
          "spine",
          "grid",
          "clamp",
          "strike",
          "nest",
          "chamfer",
          "tally",
          "stencil_f",
        ],
        null,
        "next_session",
        "the mark a client draws",
      ),
      key.enum("client.theme", ["dark"], null, "next_session", "the client's theme"),
      key.enum("client.font", ["system"], null, "next_session", "the client's font"),
    ],
  },
  {
    id: "documents",
    name: "documents",
    note: "the document and file reads a review surface makes",
    keys: [
      key.number(
        "documents.max_size_mib",
        10,
        "live",
        "ceiling on one document or file read, in MiB",
        [1, 1024],
      ),
    ],
  },
  {
    id: "claude",
    name: "claude",
    note: "the Claude Code CLI every seat runs",
    keys: [
      key.string(
        "claude.path",
        null,
        "next_session",
        "the claude binary; unset uses $FORGE_CLAUDE_BIN, else the first claude on PATH",
      ),
      key.bool(
        "claude.check_latest",
        true,
        "restart",
        "ask npm every six hours for the newest claude release (home cli_version.latest)",
      ),
      key.string(
        "claude.npm",
        "npm",
        "restart",
        "the npm client check_latest runs (its own config names the registry)",
      ),
    ],
  },
  {
    id: "env",
    name: "env",
    note: "the base layer of every seat's environment ([env] < account env < project env)",
    keys: [envTable("env", "variables every seat's CLI starts with")],
  },
  {
    id: "accounts",
    name: "accounts",
    note: "the accounts seats bind, one [[accounts]] table each",
    keys: grouped("account", [
      required(key.string("accounts[].display_name", null, "restart", "the account's unique name")),
      required(
        key.enum(
          "accounts[].provider",
          ["anthropic", "codex", "openrouter", "zai"],
          null,
          "restart",
          "who serves the account",
        ),
      ),
      key.secret(
        "accounts[].token",
        "next_session",
        "the credential; the gateway holds it and no seat's CLI sees it",
      ),
      key.string(
        "accounts[].base_url",
        null,
        "next_session",
        "the API's base URL (needed for codex, openrouter, zai)",
      ),
      key.string(
        "accounts[].config_dir",
        null,
        "next_session",
        "the CLAUDE_CONFIG_DIR this account's seats run with; ~/ expanded",
      ),
      // Checked at load (slugs and aliases name listed models), read by nothing after: a seat
      // runs the CLI's own model list. Their class says so until something routes by them.
      key.list("accounts[].models", [], "not_read_yet", "canonical model names the account serves"),
      key.table("accounts[].model_slugs", "not_read_yet", "provider slug per model"),
      key.table(
        "accounts[].model_aliases",
        "not_read_yet",
        "other names each model answers to",
        "list",
      ),
      envTable("accounts[].env", "the account's environment layer"),
    ]),
  },
  {
    id: "orgs",
    name: "orgs",
    note: "organisations and their projects: [[orgs]] with [[orgs.projects]]",
    keys: [
      ...grouped("org", [
        required(key.string("orgs[].name", null, "restart", "the org's unique name")),
        key.list(
          "orgs[].accounts",
          [],
          "restart",
          "accounts this org's seats bind, by display_name",
        ),
        key.list("orgs[].fallback_accounts", [], "restart", "accounts walked after the primaries"),
        key.string(
          "orgs[].browser_profile",
          null,
          "next_session",
          "the browser profile the org's seats use",
        ),
      ]),
      ...grouped("project", [
        required(
          key.string("orgs[].projects[].name", null, "restart", "the project's unique name"),
        ),
        required(
          key.string(
            "orgs[].projects[].path",
            null,
            "restart",
            "the project's directory; ~/ expanded",
          ),
        ),
        key.bool("orgs[].projects[].auto_start", false, "restart", "spawn the lead seat at boot"),
        key.string(
          "orgs[].projects[].model",
          null,
          "next_session",
          "the model the project's seats run",
        ),
        key.enum(
          "orgs[].projects[].permission_mode",
          PERMISSION_MODES,
          "default",
          "next_session",
          "the permission mode a seat starts in",
        ),
        key.string(
          "orgs[].projects[].effort",
          null,
          "next_session",
          "the effort level a seat starts with",
        ),
        key.number("orgs[].projects[].max_workers", 2, "live", "cap on worker seats", [0, 64]),
        envTable("orgs[].projects[].env", "the project's environment layer (narrowest)"),
        key.string(
          "orgs[].projects[].env_file",
          null,
          "next_session",
          "a KEY=value file layered under the inline env; absolute or ~/ " +
            "(a relative one is ignored, and the seat's log says so)",
        ),
        key.list(
          "orgs[].projects[].document_roots",
          [],
          "live",
          "extra directories document_read may serve; ~/ expanded",
        ),
        key.string(
          "orgs[].projects[].browser_profile",
          null,
          "next_session",
          "overrides the org's browser profile",
        ),
      ]),
    ],
  },
  {
    id: "gateway",
    name: "gateway",
    note: "the local API gateway seats are routed through",
    keys: [
      key.number(
        "gateway.port",
        8787,
        "restart",
        "the loopback port every seat's CLI sends its API requests to; 0 lets the OS pick one",
        [0, 65535],
      ),
      key.number(
        "gateway.streak_count",
        5,
        "live",
        "429s from one account, inside the window, that put it in cooldown and move its seats",
        [1, 1000],
      ),
      key.number(
        "gateway.streak_window_secs",
        60,
        "live",
        "the window those 429s count in",
        [1, 86400],
      ),
      key.number(
        "gateway.no_reset_cooldown_secs",
        60,
        "live",
        "how long an account cools when the 429 names no reset time",
        [1, 86400],
      ),
    ],
  },
  {
    id: "gotify",
    name: "gotify",
    note: "the Gotify connector",
    keys: [
      key.string("gotify.url", null, "restart", "the Gotify server"),
      key.secret("gotify.client_token", "restart", "the client token"),
    ],
  },
  {
    id: "slack",
    name: "slack",
    note: "Slack workspaces, one [[slack]] table each",
    keys: grouped("slack", [
      required(
        key.string("slack[].workspace", null, "restart", "the workspace's unique label"),
      ),
      required(key.secret("slack[].token", "restart", "the user token")),
      key.number("slack[].poll_seconds", 5, "restart", "poll interval", [1, 3600]),
      key.number(
        "slack[].thread_idle_days",
        14,
        "restart",
        "a thread idle this long is dropped",
        [1, 365],
      ),
      // forge's own: the Web API's base URL (https://slack.com/api/ unless set), so a
      // deployment behind a proxy, or a test's fake, is reached; permissions allow only it.
      key.string("slack[].api_url", null, "restart", "the Web API's base URL (unset: Slack's own)"),
    ]),
  },
];
