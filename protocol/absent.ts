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
  sessions_listed:
    "answered the original's list-sessions ask, which no v29 command makes; home's projects[].project.sessions carries the same catalog rows (session_id, last_activity, cwd) on every home read.",
  slash_command_error:
    "the original expanded slash commands itself and could fail before the CLI; forge hands a slash command to the CLI as the prompt's text, and the CLI answers an unknown or failing command in its own result frame (chat_appended), so nothing fails on forge's side to report.",
  runtime_reload_completed:
    "announced the original's in-process runtime reload. A forge seat is a CLI process: a plugin action runs the real `claude plugin` CLI and its outcome rides the plugins_* updates (extensions subject), and a config reload's failure rides fatal_error; nothing else reloads.",
  runtime_reload_failed: "as runtime_reload_completed: there is no in-process runtime to reload.",
  plugins_rollback_succeeded:
    "a rollback's outcome, and v29 has no command that rolls a plugin back: the spec's \"What is not here\" lists roll back among the details overlay's verbs filed as their own work, so no press can start one and nothing has an outcome to announce.",
  plugins_rollback_failed: "as plugins_rollback_succeeded: no v29 command starts a rollback.",
  catalog_loaded:
    "the original loaded its transcript catalog once in the background and announced it; forge reads the catalog on every home read (server/areas/project_catalog.ts), so there is no later load to announce.",
};

/** Commands the original decoded that this server decodes and refuses, with why: none today
 * (replay_conversation, start_default, reconnect_mcp_server and toggle_mcp_server all run). */
export const ABSENT_COMMANDS: Readonly<Record<string, string>> = {};
