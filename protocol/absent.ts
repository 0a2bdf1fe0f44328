/**
 * The original's updates (catalogue 2.3) that this server never sends, each with the reason it is
 * absent rather than produced. A client written against the original reads this to
 * know which of its handlers stay idle here and why; docs/protocol.md renders it. Every update
 * of the original NOT listed here is produced by some built area - among them, for the record of
 * here: history_replayed (replay_conversation), dispatches_changed and
 * subagent_cards_changed (the CLI's task frames), prompt_queued_while_busy, mcp_operation_error,
 * auth_required and fatal_error.
 */
export const ABSENT_UPDATES: Readonly<Record<string, string>> = {
  hook_observation:
    "forge installs no hooks into a seat's CLI: permissions arrive on the control protocol's can_use_tool and forge's tools are its in-process MCP server, so there is no hook event to observe. What the original read from hooks (permission mode, model) reaches the header from the CLI's own init and status frames.",
  monitors_changed:
    "the CLI's Monitor tool is not folded into records yet: `monitors` is [] and nothing announces it. A client draws an empty monitor list, which is the truth of what forge tracks.",
  sessions_listed:
    "answered the original's list-sessions ask, which no v29 command makes; home's projects[].project.sessions carries the same catalog rows (session_id, last_activity, cwd) on every home read.",
  slash_command_error:
    "the original expanded slash commands itself and could fail before the CLI; forge hands a slash command to the CLI as the prompt's text, and the CLI answers an unknown or failing command in its own result frame (chat_appended), so nothing fails on forge's side to report.",
  runtime_reload_completed:
    "announced the original's in-process runtime reload. A forge seat is a CLI process: a plugin action runs the real `claude plugin` CLI and its outcome rides the plugins_* updates (extensions subject), and a config reload's failure rides fatal_error; nothing else reloads.",
  runtime_reload_failed: "as runtime_reload_completed: there is no in-process runtime to reload.",
  review_activity_notice:
    "the original's nag for a branch with unanswered review threads; the review subsystem serves threads and reviews on the session record and reviews' own commands, and sends no periodic notice.",
  service_status:
    "the statuspage poll needs a network host no forge config key names, and a subsystem's permissions stay to what its config names (docs/permissions.md); home's service_status stays null, which the spec reads as healthy or unreachable.",
  cli_version_changed:
    "the installed version is read once at boot and `latest` is never polled (no registry host is a permission forge holds), so nothing moves after boot to announce; a home read taken before the boot read landed shows installed null until the next home read. (Sending it at boot would land an unsolicited home frame in every early client's stream for a fact no page acts on.)",
  catalog_loaded:
    "the original loaded its transcript catalog once in the background and announced it; forge reads the catalog on every home read (server/areas/project_catalog.ts), so there is no later load to announce.",
};

/** Commands the original decoded that this server decodes and refuses, with why: none today
 * (replay_conversation, start_default, reconnect_mcp_server and toggle_mcp_server all run). */
export const ABSENT_COMMANDS: Readonly<Record<string, string>> = {};
