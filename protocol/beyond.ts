import type { ClientKind } from "./client.ts";
import { COMMANDS, type CommandSpec } from "./command.ts";
import { PLUGINS_EXTENSIONS, SUBJECT_FIELD_EXTENSIONS } from "./extensions.ts";
import { NOTIFY_EXTENSIONS } from "./notify.ts";
import { SERVER_FIELD_EXTENSIONS, type ServerKind } from "./server.ts";
import { UPDATE_NAMES, updateSpec } from "./update.ts";

const HELD_FAILURE =
  "a held ask resolves after its answer's effect and names why one failed (docs/held_asks.md)";

/** Whole message kinds, by direction, with why. */
export interface BeyondKinds {
  client: Partial<Record<ClientKind, string>>;
  server: Partial<Record<ServerKind, string>>;
}

/**
 * What forge adds beyond protocol v29, by where it appears: wire names the original never had.
 * The commands and updates are read from their tables' `extension` marks (so marking a row is
 * the one edit), the home fields and the fields on v29's updates and messages from the files
 * that add them. A v29 client never meets them unless it sends them; docs/protocol.md lists each
 * one with why. A name the spec gives is v29's even where it leaves the shape to forge.
 */
export const BEYOND_V29 = {
  commands: (Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).filter((n) =>
    (COMMANDS[n] as CommandSpec).extension !== undefined
  ),
  updates: UPDATE_NAMES.filter((n) => updateSpec(n).extension !== undefined),
  home: [...NOTIFY_EXTENSIONS.home],
  // Fields forge adds to v29's own updates, as `update.field`, with why. `failure` on every held
  // ask's `_resolved`: v29's names only the ending; forge's resolves after the answer's effect
  // and says why one failed (spec: Editing the config). docs/held_asks.md.
  fields: {
    ...Object.fromEntries(
      [
        "slack_draft_resolved",
        "browser_hand_off_resolved",
        "document_hand_off_resolved",
        "terminal_hand_off_resolved",
        "vault_ask_resolved",
        "settings_write_resolved",
      ].map((u) => [`${u}.failure`, HELD_FAILURE]),
    ),
    ...PLUGINS_EXTENSIONS.fields,
    "cron_prompt_appended.name":
      "the schedule's name as a page's cron_names gives it (its description, else its " +
      "expression or instant), so a live fired row is named as a reloaded one is; v29's update " +
      "carries only the description, null for a schedule made without one",
  } as Readonly<Record<string, string>>,
  // Whole client and server kinds v29 does not have. None: every kind crossing is one the spec
  // names. commit_diff is one ("What is not here": "one commit's own diff (commit_diff, asked for
  // on demand)"), its fields forge's reading, as the plugin actions' are.
  kinds: { client: {}, server: {} } as BeyondKinds,
  // Fields forge adds to v29's subject snapshots, as `subject.path`, with why.
  subject_fields: SUBJECT_FIELD_EXTENSIONS as Readonly<Record<string, string>>,
  // Fields forge adds to v29's own messages, as `kind.path` (`[]` steps into a list), with why.
  message_fields: {
    client: {} as Readonly<Record<string, string>>,
    server: SERVER_FIELD_EXTENSIONS as Readonly<Record<string, string>>,
  },
};
