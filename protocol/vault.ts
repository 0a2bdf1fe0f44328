import { z } from "zod";

// spec: Editing the config > vault. The spec names the messages and what they carry but leaves
// their shapes open, and the original forge has no vault, so these shapes are ours:
// externally tagged like every other enum on the wire (the document hand-off's answer is the
// model), snake_case fields.

/** Unlock material with the password: the master password and the authenticator's code. */
export const PasswordMaterial = z.object({
  password: z.string().min(1),
  code: z.string().regex(/^\d{6,8}$/).nullable(),
}).strict();

/** Unlock material a platform authenticator released: the enrolment's refresh token and key. */
export const ReleasedMaterial = z.object({
  refresh_token: z.string().min(1),
  user_key: z.string().min(1),
}).strict();

export const UnlockMaterial = z.union([PasswordMaterial, ReleasedMaterial]);
export type UnlockMaterial = z.infer<typeof UnlockMaterial>;

/**
 * `respond_vault_ask`'s answer: `{"approve": {"unlock": null | material}}`,
 * `{"send_back": {"note": "..."}}`, or `"decline"`. spec: "approve, send_back with a note, or
 * decline, plus the unlock material when the card asked for it".
 */
export const VaultAnswer = z.union([
  z.literal("decline"),
  z.object({ approve: z.object({ unlock: UnlockMaterial.nullable() }).strict() }).strict(),
  z.object({ send_back: z.object({ note: z.string() }).strict() }).strict(),
]);
export type VaultAnswer = z.infer<typeof VaultAnswer>;

/** The vault tools, as a card names them. */
export const VaultTool = z.enum(["search", "read", "create", "update", "attachment"]);
export type VaultTool = z.infer<typeof VaultTool>;

/**
 * A held vault call's card (`vault_ask_pending`'s fields beside `key` and `id`, and
 * `pending_asks[].request`). It draws no secret: the tool, the item as the agent named it,
 * the field, a masked diff (which fields are set or cleared, never a value), an attachment's
 * name and size, and `needs_unlock`, stamped from the live session on every push.
 */
export const VaultAskRequest = z.object({
  tool: VaultTool,
  /** The item as the agent named it (an id or a name); null for a search. */
  item: z.string().nullable(),
  /** What a search looks for; null for the other tools. */
  query: z.string().nullable(),
  field: z.string().nullable(),
  diff: z.array(z.object({ field: z.string(), change: z.enum(["set", "cleared"]) })).nullable(),
  attachment: z.object({ name: z.string(), size: z.number().nullable() }).nullable(),
  needs_unlock: z.boolean(),
}).strict();
export type VaultAskRequest = z.infer<typeof VaultAskRequest>;

/** `vault_enrolment_material`'s reply body: the material, or null while the session is locked. */
export const EnrolmentMaterial = ReleasedMaterial.nullable();
export type EnrolmentMaterial = z.infer<typeof EnrolmentMaterial>;

/**
 * A device's wrapped blob: the bytes its platform authenticator sealed, as base64 (or base64url)
 * text. The spec leaves the blob opaque; forge's reading fixes its alphabet because
 * biometric_release answers the blob through a reply whose refusal is also a string (spec:
 * command > reply_to: "A refusal arrives in that same reply, as the body"). A sentence has spaces,
 * a blob never does, so a client tells the two apart by this schema alone.
 */
export const WrappedBlob = z.string().min(1).max(64 * 1024).regex(/^[A-Za-z0-9+/_-]+={0,2}$/);

/** `biometric_enrol`'s fields: a device's wrapped blob for one purpose. Reply: true. */
export const BiometricEnrol = z.object({
  device: z.string().min(1).max(200),
  purpose: z.string().min(1).max(200),
  blob: WrappedBlob,
}).strict();

/** `biometric_release`'s fields. Reply: the stored blob. */
export const BiometricRelease = z.object({
  device: z.string().min(1).max(200),
  purpose: z.string().min(1).max(200),
}).strict();

/** `biometric_rewrite`'s fields (update-only). Reply: true when a row was rewritten, else false. */
export const BiometricRewrite = BiometricEnrol;

/** `vault_enrolment_material` takes no fields. */
export const VaultEnrolmentMaterial = z.object({}).strict();

/** The home subject's `vault` row: null when the config declares no `[vault]`. */
export const HomeVault = z.object({
  locked: z.boolean(),
  /** Why it last locked (boot, idle, vault_lock, refresh_failed, keys_rotated); null when open. */
  lock_reason: z.string().nullable(),
  idle_lock_minutes: z.number(),
}).nullable();
export type HomeVault = z.infer<typeof HomeVault>;

/** The home subject's `biometric` row: devices and purposes with their stamps, never a blob. */
export const HomeBiometric = z.object({
  devices: z.array(z.object({
    device: z.string(),
    purposes: z.array(z.object({
      purpose: z.string(),
      enrolled_at: z.string(),
      last_release_at: z.string().nullable(),
    })),
  })),
});
export type HomeBiometric = z.infer<typeof HomeBiometric>;

/**
 * The slot-less `vault_rotated` update: the session's new refresh token, live sockets only, and
 * only those that answer (a read-only connection holds no enrolment and no secret).
 */
export const VaultRotated = z.object({ refresh_token: z.string() }).strict();
export type VaultRotated = z.infer<typeof VaultRotated>;
