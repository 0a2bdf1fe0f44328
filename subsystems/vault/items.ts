import type { CipherRecord } from "./api.ts";
import * as c from "./crypto.ts";

// Items as forge reads them: a cipher decrypted under its own key (when it has one) or the
// user key. Field names the agent uses: username, password, notes, uri, totp, and a custom
// field by its own name.

/** The built-in fields of a login item; anything else names a custom field. */
export const BUILTIN_FIELDS = ["username", "password", "notes", "uri", "totp"] as const;

export interface AttachmentView {
  id: string;
  name: string;
  size: number | null;
  key: c.SymKey;
}

/** One decrypted item. Values live only as long as the call that asked for them. */
export interface ItemView {
  id: string;
  name: string;
  /** The key its fields are encrypted under: its own cipher key, or the user key. */
  key: c.SymKey;
  fields: Map<string, string>;
  attachments: AttachmentView[];
  record: CipherRecord;
}

const dec = async (v: string | null | undefined, key: c.SymKey) =>
  v ? await c.decryptText(v, key) : null;

/** Decrypts one cipher; throws `MacMismatch` when the key no longer opens it. */
export async function openItem(record: CipherRecord, userKey: c.SymKey): Promise<ItemView> {
  const key = record.key ? c.splitKey(await c.decrypt(record.key, userKey)) : userKey;
  const fields = new Map<string, string>();
  const put = (name: string, v: string | null) => v !== null && fields.set(name, v);
  put("username", await dec(record.login?.username, key));
  put("password", await dec(record.login?.password, key));
  put("totp", await dec(record.login?.totp, key));
  put("uri", await dec(record.login?.uris?.[0]?.uri, key));
  put("notes", await dec(record.notes, key));
  for (const f of record.fields ?? []) {
    const name = await dec(f.name, key);
    if (name !== null) put(name, (await dec(f.value, key)) ?? "");
  }
  const attachments: AttachmentView[] = [];
  for (const a of record.attachments ?? []) {
    attachments.push({
      id: a.id,
      name: (await dec(a.fileName, key)) ?? a.id,
      size: a.size === null || a.size === undefined ? null : Number(a.size),
      key: a.key ? c.splitKey(await c.decrypt(a.key, key)) : key,
    });
  }
  return {
    id: record.id,
    name: (await dec(record.name, key)) ?? "",
    key,
    fields,
    attachments,
    record,
  };
}

/** Finds the item an agent named: by id first, then by exact name (refusing an ambiguous one). */
export function pickItem(items: ItemView[], ref: string): ItemView {
  const byId = items.find((i) => i.id === ref);
  if (byId) return byId;
  const named = items.filter((i) => i.name === ref);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new Error(`${named.length} items are named "${ref}": name the one you mean by its id`);
  }
  throw new Error(`no item in the vault has the id or name "${ref}"`);
}

/** What a field change does, for a card that must not draw the value. */
export interface MaskedChange {
  field: string;
  change: "set" | "cleared";
}

export function maskedDiff(set: Record<string, string | null>): MaskedChange[] {
  return Object.entries(set).map(([field, v]) => ({
    field,
    change: v === null ? "cleared" : "set",
  }));
}

const enc = (v: string | null, key: c.SymKey) => v === null ? null : c.encryptText(v, key);

/**
 * The cipher record a write sends: the item's encrypted record with the changed fields
 * re-encrypted under the item's key. A custom field not there yet is added as a hidden field.
 */
export async function applyChanges(
  item: { record: CipherRecord | null; key: c.SymKey; name: string },
  set: Record<string, string | null>,
): Promise<Record<string, unknown>> {
  const base: Record<string, unknown> = item.record ? { ...item.record } : {
    type: 1,
    name: await c.encryptText(item.name, item.key),
    notes: null,
    favorite: false,
    reprompt: 0,
    folderId: null,
    organizationId: null,
    key: null,
    login: { username: null, password: null, totp: null, uris: [] },
    fields: [],
  };
  const login = { ...(base.login as Record<string, unknown> ?? {}) };
  const fields = [...(base.fields as Record<string, unknown>[] ?? [])];
  for (const [name, value] of Object.entries(set)) {
    if (name === "username" || name === "password" || name === "totp") {
      login[name] = await enc(value, item.key);
    } else if (name === "uri") {
      const uri = await enc(value, item.key);
      login.uri = uri;
      login.uris = uri ? [{ uri, match: null }] : [];
    } else if (name === "notes") {
      base.notes = await enc(value, item.key);
    } else {
      let at = -1;
      for (let i = 0; i < fields.length; i++) {
        const n = fields[i].name as string | null;
        if (n && (await c.decryptText(n, item.key)) === name) at = i;
      }
      if (value === null) {
        if (at >= 0) fields.splice(at, 1);
      } else if (at >= 0) {
        fields[at] = { ...fields[at], value: await c.encryptText(value, item.key) };
      } else {
        fields.push({
          type: 1,
          name: await c.encryptText(name, item.key),
          value: await c.encryptText(value, item.key),
          linkedId: null,
        });
      }
    }
  }
  return { ...base, login, fields, lastKnownRevisionDate: base.revisionDate ?? null };
}
