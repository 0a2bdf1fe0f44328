/**
 * forge's wire, and nothing else: schemas and types for every client and server message, the
 * Command and SessionUpdate enums, the binary frame codecs and the protocol version. It imports
 * nothing of the server's, so a TypeScript client can import it as its SDK.
 */
export * from "./version.ts";
export * from "./wire.ts";
export * from "./slot.ts";
export * from "./subject.ts";
export * from "./snapshots.ts";
export * from "./board.ts";
export * from "./connectors.ts";
export * from "./workers.ts";
export * from "./review.ts";
export * from "./review_record.ts";
export * from "./documents.ts";
export * from "./command_fields.ts";
export * from "./command.ts";
export * from "./command_wire.ts";
export * from "./update.ts";
export * from "./update_spec.ts";
export * from "./updates_seat.ts";
export * from "./updates_fleet.ts";
export * from "./updates_subsystems.ts";
export * from "./held.ts";
export * from "./asks.ts";
export * from "./validate.ts";
export * from "./usage.ts";
export * from "./client.ts";
export * from "./server.ts";
export * from "./config_key.ts";
export * from "./binary.ts";
export * from "./terminal_frames.ts";
export * from "./terminal_summary.ts";
export * from "./accounts.ts";
export * from "./dictate.ts";
export * from "./take_updates.ts";
export * from "./dictate_models.ts";
export * from "./vault.ts";
export * from "./extensions.ts";
export * from "./notify.ts";
export * from "./beyond.ts";
export * from "./lenient.ts";
export * from "./issues.ts";
export * from "./home.ts";
export * from "./session.ts";
export * from "./current_model.ts";
export * from "./absent.ts";
export * from "./browser_frames.ts";
export * from "./verb_replies.ts";
export * from "./voice.ts";
