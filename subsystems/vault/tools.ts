import { z } from "zod";
import { defineTool } from "../../server/subsystem.ts";

// The agent's vault tools. Every one parks as `vault_ask_pending` until a person answers
// (spec: Editing the config > vault), so none is read-only: a parked call must not run beside
// another call of the same message as if it were a read.

const ref = z.string().min(1).max(500).describe("the item's id, or its exact name");
const fieldName = z.string().min(1).max(200);

export const SearchInput = z.object({
  query: z.string().min(1).max(200).describe("words to find in item names, usernames and uris"),
}).strict();
export const ReadInput = z.object({
  item: ref,
  field: fieldName.describe("username, password, notes, uri, totp, or a custom field's name"),
}).strict();
export const CreateInput = z.object({
  name: z.string().min(1).max(500),
  fields: z.record(fieldName, z.string().max(10_000))
    .describe("username, password, notes, uri, totp, or custom field names, to their values"),
}).strict();
export const UpdateInput = z.object({
  item: ref,
  set: z.record(fieldName, z.string().max(10_000).nullable())
    .refine((s) => Object.keys(s).length > 0, "set names at least one field")
    .describe("fields to their new values; null clears a field"),
}).strict();
export const AttachmentInput = z.object({
  item: ref,
  attachment: z.string().min(1).max(500).describe("the attachment's file name"),
}).strict();

const waits = "Waits until a person approves it in forge.";
const spec = <const V extends string, I extends z.ZodType>(
  verb: V,
  description: string,
  input: I,
) =>
  defineTool({
    name: `vault__${verb}`,
    family: "vault",
    description: `${description} ${waits}`,
    input,
    roles: ["lead", "worker"],
    readOnly: false,
  });

/** The five vault tools the manifest declares. */
export const VAULT_TOOLS = [
  spec(
    "search",
    "Find items in the person's password vault (names, usernames, uris).",
    SearchInput,
  ),
  spec("read", "Read one field of one vault item.", ReadInput),
  spec("create", "Create a login item in the vault.", CreateInput),
  spec("update", "Set or clear fields of a vault item.", UpdateInput),
  spec(
    "attachment",
    "Fetch one attachment of a vault item (text, or base64 for binary).",
    AttachmentInput,
  ),
] as const;
