import type { UpdateName } from "./update.ts";

/**
 * The original's SessionUpdate variants at its baseline v8 (77 names), in
 * its declaration order. Each is either a row of forge's update table (protocol/update.ts) or
 * argued absent below; the types hold both ways: a name in both, or in neither, does not compile.
 */
export const ORIGINAL_UPDATES = [
  "spawning",
  "connected",
  "history_replayed",
  "call_output",
  "session_replaced",
  "connection_failed",
  "releasing",
  "auth_required",
  "slash_command_error",
  "notice",
  "runtime_reload_completed",
  "runtime_reload_failed",
  "set_mode_failed",
  "set_model_failed",
  "permission_request",
  "question_request",
  "pending_interaction_resolved",
  "mcp_operation_error",
  "turn_complete",
  "turn_cancelled",
  "turn_error",
  "chat_appended",
  "hook_observation",
  "status_snapshot",
  "forge_account_identity",
  "dictate_overrides",
  "dictate_device_pin",
  "oauth_credentials_snapshot",
  "context_usage_snapshot",
  "mcp_snapshot",
  "processes_changed",
  "monitors_changed",
  "background_tasks_changed",
  "work_changed",
  "tasks_changed",
  "cron_schedules_changed",
  "connector_subscriptions_changed",
  "slash_commands_changed",
  "subagents_changed",
  "dispatches_changed",
  "subagent_cards_changed",
  "file_index_changed",
  "sessions_listed",
  "service_status",
  "catalog_loaded",
  "cli_version_changed",
  "accounts_changed",
  "plugins_inventory_updated",
  "plugins_inventory_refresh_failed",
  "plugins_cli_action_succeeded",
  "plugins_cli_action_failed",
  "plugins_update_run_progress",
  "plugins_update_run_finished",
  "plugins_rollback_succeeded",
  "plugins_rollback_failed",
  "worker_status_changed",
  "peer_envelope_appended",
  "gotify_notification_appended",
  "cron_prompt_appended",
  "slack_message_appended",
  "slack_post_pending",
  "slack_draft_resolved",
  "browser_hand_off_pending",
  "browser_hand_off_resolved",
  "prompt_queued_while_busy",
  "prompt_queued",
  "prompt_lifecycle",
  "prompt_cancel_resolved",
  "review_activity_notice",
  "dictate_availability",
  "dictate_started",
  "dictate_level",
  "dictate_transcribing",
  "dictate_progress",
  "dictate_ended",
  "fatal_error",
  "dictate_models_changed",
] as const;
export type OriginalUpdate = typeof ORIGINAL_UPDATES[number];
/** The original's updates forge's table does not hold: exactly the ones argued below. */
export type AbsentUpdate = Exclude<OriginalUpdate, UpdateName>;

/**
 * The original's updates that this server never sends, each with the reason it is
 * absent rather than produced. A client written against the original reads this to know which of
 * its handlers stay idle here and why; docs/protocol.md renders it. The keys are derived: every
 * original name that is not a row of the update table, and no other (a row emitted later must
 * leave this list, or the file does not compile).
 */
export const ABSENT_UPDATES: { readonly [N in AbsentUpdate]: string } = {
  hook_observation:
    "forge installs no hooks into a seat's CLI: permissions arrive on the control protocol's can_use_tool and forge's tools are its in-process MCP server, so there is no hook event to observe. What the original read from hooks (permission mode, model) reaches the header from the CLI's own init and status frames.",
  sessions_listed:
    "answered the original's list-sessions ask, which no v29 command makes; home's projects[].project.sessions carries the catalog rows (session_id, last_activity, cwd) on every home read, and forge's list_sessions command (an extension) answers what to call each in its reply, to the asker alone, rather than as an update in the seat's sequence.",
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
