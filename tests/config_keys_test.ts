// spec: The effective config (each key's class: live, next_session, restart, not_read_yet). A key
// whose class says it takes effect must be read by something: each is named here with the file
// that reads it, and that file must access the key's own field (found on Deno's syntax tree, not
// by text). A switch (`<area>.enabled`) is read by the registry through its manifest's `switch`.
// A key nothing reads must say `not_read_yet`. What this cannot see: that the named file reads the
// field of THIS area rather than another's of the same name; the table is the reviewed claim.
import { assert, assertEquals } from "./assert.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { catalogueAreas } from "../server/registry.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";

const REPO = new URL("..", import.meta.url).pathname;

/** Who reads each key whose class says it takes effect. */
const READERS: Record<string, string> = {
  "server.enabled": "server/boot/socket.ts",
  "server.bind": "server/boot/socket.ts",
  "server.port": "server/boot/socket.ts",
  "server.allowed_origins": "server/boot/socket.ts",
  "server.status_url": "server/areas/service_status.ts",
  "claude.check_latest": "server/areas/cli_version.ts",
  "claude.npm": "server/areas/cli_version.ts",
  "browser.run_code_unsafe": "subsystems/browser/tool_specs_page.ts",
  "server.first_frame_cap_kb": "server/workspace/seats/history.ts",
  "server.tool_record_cap_kb": "server/workspace/seats/occupant_frames.ts",
  "server.subsystem_start_secs": "server/registry.ts",
  "client.mark": "server/greeting.ts",
  "client.theme": "server/greeting.ts",
  "client.font": "server/greeting.ts",
  "documents.max_size_mib": "subsystems/review/mod.ts",
  "claude.path": "server/workspace/cli.ts",
  "env": "server/workspace/seats/launch.ts",
  "accounts[].display_name": "server/gateway/pool.ts",
  "accounts[].provider": "server/gateway/upstream.ts",
  "accounts[].token": "server/workspace/seats/launch.ts",
  "accounts[].base_url": "server/gateway/pool.ts",
  "accounts[].config_dir": "server/gateway/pool.ts",
  "accounts[].env": "server/workspace/seats/launch.ts",
  "orgs[].name": "server/gateway/pool.ts",
  "orgs[].accounts": "server/gateway/pool.ts",
  "orgs[].fallback_accounts": "server/gateway/pool.ts",
  "orgs[].browser_profile": "subsystems/browser/profiles.ts",
  "orgs[].projects[].name": "server/board/board.ts",
  "orgs[].projects[].path": "server/workspace/seats/manager.ts",
  "orgs[].projects[].auto_start": "server/workspace/seats/manager.ts",
  "orgs[].projects[].model": "server/workspace/seats/launch.ts",
  "orgs[].projects[].permission_mode": "server/workspace/seats/launch.ts",
  "orgs[].projects[].effort": "server/workspace/seats/launch.ts",
  "orgs[].projects[].max_workers": "server/workers/workers.ts",
  "orgs[].projects[].env": "server/workspace/seats/launch.ts",
  "orgs[].projects[].env_file": "server/workspace/seats/launch.ts",
  "orgs[].projects[].document_roots": "subsystems/review/mod.ts",
  "orgs[].projects[].browser_profile": "subsystems/browser/profiles.ts",
  "gateway.port": "server/gateway/gateway.ts",
  "gateway.streak_count": "server/gateway/pool.ts",
  "gateway.streak_window_secs": "server/gateway/pool.ts",
  "gateway.no_reset_cooldown_secs": "server/gateway/pool.ts",
  "gotify.url": "subsystems/connectors/mod.ts",
  "gotify.client_token": "subsystems/connectors/mod.ts",
  "slack[].workspace": "subsystems/connectors/slack_hub.ts",
  "slack[].token": "subsystems/connectors/slack_api.ts",
  "slack[].poll_seconds": "subsystems/connectors/slack_hub.ts",
  "slack[].thread_idle_days": "subsystems/connectors/slack_hub.ts",
  "slack[].api_url": "subsystems/connectors/slack_api.ts",
  "terminal.shell": "subsystems/terminal/mod.ts",
  "terminal.scrollback": "subsystems/terminal/mod.ts",
  "browser.chromium": "subsystems/browser/profiles.ts",
  "browser.idle_close_secs": "subsystems/browser/profiles.ts",
  "dictate.models_dir": "subsystems/dictate/mod.ts",
  "dictate.device": "subsystems/dictate/mod.ts",
  "dictate.normalizer": "subsystems/dictate/mod.ts",
  "dictate.catalogue": "subsystems/dictate/mod.ts",
  "dictate.import_dir": "subsystems/dictate/mod.ts",
  "dictate.server_capture": "subsystems/dictate/take_commands.ts",
  "dictate.max_capture_minutes": "subsystems/dictate/mod.ts",
  "dictate.bind": "server/workspace/seats/rows.ts",
  "dictate.mode": "server/workspace/seats/rows.ts",
  "dictate.styling": "server/greeting.ts",
  "dictate.structure": "server/greeting.ts",
  "dictate.context": "server/greeting.ts",
  "tts.models_dir": "subsystems/voice/mod.ts",
  "tts.speaking_model": "subsystems/voice/speaking.ts",
  "tts.voice": "subsystems/voice/mod.ts",
  "vault.server_url": "subsystems/vault/mod.ts",
  "vault.email": "subsystems/vault/mod.ts",
  "vault.idle_lock_minutes": "subsystems/vault/mod.ts",
  "plugins.auto_update": "subsystems/plugins/mod.ts",
  "notify.kinds": "subsystems/notify/settings.ts",
  "notify.finished_after_secs": "subsystems/notify/settings.ts",
  "notify.coalesce_secs": "subsystems/notify/settings.ts",
  "notify.retry_minutes": "subsystems/notify/settings.ts",
  "notify.client_url": "subsystems/notify/settings.ts",
  "notify.ntfy.url": "subsystems/notify/settings.ts",
  "notify.ntfy.topic": "subsystems/notify/settings.ts",
  "notify.ntfy.token": "subsystems/notify/settings.ts",
  "notify.gotify.url": "subsystems/notify/settings.ts",
  "notify.gotify.app_token": "subsystems/notify/settings.ts",
  "notify.webpush.enabled": "subsystems/notify/settings.ts",
  "notify.webpush.subject": "subsystems/notify/settings.ts",
  "notify.webpush.push_hosts": "subsystems/notify/settings.ts",
};

/** The field names a file reads: `x.leaf`, `x?.leaf`, `x["leaf"]`, `{ leaf } = x`. */
function fieldsRead(path: string, source: string): Set<string> {
  const names = new Set<string>();
  const plugin: Deno.lint.Plugin = {
    name: "forge-config-reads",
    rules: {
      read: {
        create() {
          return {
            MemberExpression(node) {
              const p = node.property;
              if (p.type === "Identifier" && !node.computed) names.add(p.name);
              if (p.type === "Literal" && typeof p.value === "string") names.add(p.value);
            },
            "ObjectPattern > Property"(node: Deno.lint.Property) {
              if (node.key.type === "Identifier") names.add(node.key.name);
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin, path, source);
  return names;
}

Deno.test("every key whose class says it takes effect is read where the table says", async () => {
  const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
  const switches = new Set(SUBSYSTEMS.map((m) => m.switch).filter((s) => s !== null));
  const keys = areas.flatMap((a) => a.keys);
  const problems: string[] = [];
  const read = new Map<string, Set<string>>();
  for (const k of keys) {
    const reader = READERS[k.pattern];
    if (k.class === "not_read_yet") {
      if (reader) {
        problems.push(`${k.pattern} says not_read_yet, yet ${reader} is named its reader`);
      }
      continue;
    }
    if (switches.has(k.pattern)) {
      if (reader) problems.push(`${k.pattern} is a switch: the registry reads it, not ${reader}`);
      continue;
    }
    if (!reader) {
      problems.push(`${k.pattern} (${k.class}) has no reader: read it, or say not_read_yet`);
      continue;
    }
    if (!read.has(reader)) {
      read.set(reader, fieldsRead(reader, await Deno.readTextFile(REPO + reader)));
    }
    // A nested key is read by its leaf or by its dotted tail (`a["ntfy.url"]`).
    const parts = k.pattern.replaceAll("[]", "").split(".");
    const tails = parts.length === 1
      ? parts
      : parts.slice(1).map((_, i) => parts.slice(i + 1).join("."));
    if (!tails.some((t) => read.get(reader)!.has(t))) {
      problems.push(`${reader} never reads \`${parts.at(-1)}\` (${k.pattern})`);
    }
  }
  const known = new Set(keys.map((k) => k.pattern));
  for (const k of Object.keys(READERS)) {
    if (!known.has(k)) problems.push(`${k} is named here but is not a catalogue key`);
  }
  assertEquals(problems, []);
  // The switches really are read: the registry turns each subsystem on by its manifest's switch.
  const registry = await Deno.readTextFile(`${REPO}server/registry.ts`);
  assert(fieldsRead("server/registry.ts", registry).has("switch"), "the registry reads `switch`");
  for (const s of switches) assert(known.has(s!), `${s} is a catalogue key`);
});
