import { z } from "zod";
import { netWords } from "../../server/subsystem.ts";
import type { Kdf } from "./crypto.ts";

// The Bitwarden client protocol, as the official CLI speaks it (identity: prelogin and
// connect/token; api: sync, cipher writes, attachments). Responses are parsed loosely - a
// server adds fields freely - and only what forge reads is named.

/** Why a call to the vault server failed, in words that carry no secret. */
export class VaultServerError extends Error {
  constructor(
    readonly reason:
      | "two_factor_required"
      | "bad_credentials"
      | "bad_code"
      | "refresh_refused"
      | "unauthorized"
      | "unreachable"
      | "refused"
      | "unreadable",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "VaultServerError";
  }
}

const Prelogin = z.looseObject({
  kdf: z.number(),
  kdfIterations: z.number(),
  kdfMemory: z.number().nullish(),
  kdfParallelism: z.number().nullish(),
});
const Tokens = z.looseObject({
  access_token: z.string(),
  expires_in: z.number(),
  refresh_token: z.string(),
  Key: z.string().optional(),
});
export type Tokens = z.infer<typeof Tokens>;
const GrantError = z.looseObject({
  error: z.string().optional(),
  TwoFactorProviders2: z.record(z.string(), z.unknown()).optional(),
  ErrorModel: z.looseObject({ Message: z.string() }).optional(),
});
const EncField = z.string().nullish();
export const CipherRecord = z.looseObject({
  id: z.string(),
  type: z.number(),
  name: z.string(),
  notes: EncField,
  key: EncField,
  deletedDate: z.string().nullish(),
  login: z.looseObject({
    username: EncField,
    password: EncField,
    totp: EncField,
    uris: z.array(z.looseObject({ uri: EncField })).nullish(),
  }).nullish(),
  fields: z.array(z.looseObject({ type: z.number(), name: EncField, value: EncField })).nullish(),
  attachments: z.array(z.looseObject({
    id: z.string(),
    fileName: z.string(),
    key: EncField,
    size: z.union([z.string(), z.number()]).nullish(),
    url: z.string().nullish(),
  })).nullish(),
});
export type CipherRecord = z.infer<typeof CipherRecord>;
const Sync = z.looseObject({
  profile: z.looseObject({ privateKey: z.string().nullish(), key: z.string().nullish() }),
  ciphers: z.array(CipherRecord),
});
export type Sync = z.infer<typeof Sync>;
const AttachmentMeta = z.looseObject({ url: z.string() });

const HEADERS = {
  "device-type": "25",
  "bitwarden-client-name": "cli",
  "bitwarden-client-version": "2026.9.0",
};

/** One vault server's endpoints. `client` carries a custom CA where a test needs one. */
export class VaultApi {
  readonly #base: string;
  readonly #device = crypto.randomUUID();

  constructor(serverUrl: string, private readonly client?: Deno.HttpClient) {
    this.#base = serverUrl.replace(/\/+$/, "");
  }

  async #send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(/^https?:/.test(path) ? path : `${this.#base}${path}`, {
        ...init,
        headers: { ...HEADERS, ...(init.headers as Record<string, string>) },
        ...(this.client ? { client: this.client } : {}),
      });
    } catch (err) {
      // fetch's own words stay out (they ride on the cause): the URL and forge's reason say it.
      throw new VaultServerError(
        "unreachable",
        `the vault server at ${this.#base} could not be reached: ${netWords(err)}`,
        { cause: err },
      );
    }
  }

  async prelogin(email: string): Promise<Kdf> {
    const res = await this.#send("/identity/accounts/prelogin/password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    if (!res.ok) throw new VaultServerError("refused", `prelogin answered ${res.status}`);
    const p = expect(Prelogin, await readJson(res), "prelogin");
    return p.kdf === 1
      ? {
        type: 1,
        iterations: p.kdfIterations,
        memory: p.kdfMemory ?? 64,
        parallelism: p.kdfParallelism ?? 4,
      }
      : { type: 0, iterations: p.kdfIterations };
  }

  async #grant(form: Record<string, string>): Promise<Tokens> {
    const res = await this.#send("/identity/connect/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      body: new URLSearchParams(form),
    });
    // A body that is not JSON is checked below as an unknown answer, with its status.
    const body = await readJson(res);
    if (res.ok) return expect(Tokens, body, "the token request");
    const err = GrantError.safeParse(body);
    const said = err.success ? err.data.ErrorModel?.Message ?? err.data.error : undefined;
    if (form.grant_type === "refresh_token") {
      throw new VaultServerError(
        "refresh_refused",
        `the refresh was refused (${said ?? res.status})`,
      );
    }
    if (err.success && err.data.TwoFactorProviders2) {
      throw new VaultServerError("two_factor_required", "the account asks for a two-step code");
    }
    if (said && /totp|two.?factor|code/i.test(said)) {
      throw new VaultServerError("bad_code", "the two-step code was not accepted");
    }
    throw new VaultServerError("bad_credentials", "the master password was not accepted");
  }

  /** The password grant; `code` is the authenticator's (provider 0) when the account asks. */
  passwordGrant(email: string, hash: string, code: string | null): Promise<Tokens> {
    return this.#grant({
      grant_type: "password",
      username: email,
      password: hash,
      scope: "api offline_access",
      client_id: "cli",
      deviceType: "25",
      deviceIdentifier: this.#device,
      deviceName: "forge",
      ...(code ? { twoFactorToken: code, twoFactorProvider: "0", twoFactorRemember: "0" } : {}),
    });
  }

  refreshGrant(refreshToken: string): Promise<Tokens> {
    return this.#grant({
      grant_type: "refresh_token",
      client_id: "cli",
      refresh_token: refreshToken,
    });
  }

  async #api(access: string, path: string, init: RequestInit = {}): Promise<Response> {
    const res = await this.#send(`/api${path}`, {
      ...init,
      headers: { authorization: `Bearer ${access}`, ...(init.headers as Record<string, string>) },
    });
    if (res.status === 401) {
      await res.body?.cancel();
      throw new VaultServerError("unauthorized", "the vault server refused the session's token");
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new VaultServerError("refused", `the vault server answered ${path} with ${res.status}`);
    }
    return res;
  }

  async sync(access: string): Promise<Sync> {
    const res = await this.#api(access, "/sync?excludeDomains=true");
    return expect(Sync, await readJson(res), "sync");
  }

  /** Creates (id null) or replaces a cipher; answers the stored record. */
  async writeCipher(access: string, id: string | null, body: unknown): Promise<CipherRecord> {
    const res = await this.#api(access, id ? `/ciphers/${encodeURIComponent(id)}` : "/ciphers", {
      method: id ? "PUT" : "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return expect(CipherRecord, await readJson(res), "the item's write");
  }

  /** An attachment's encrypted bytes, through the download url the server hands out. */
  async attachment(access: string, cipherId: string, attachmentId: string): Promise<Uint8Array> {
    const path = `/ciphers/${encodeURIComponent(cipherId)}/attachment/${
      encodeURIComponent(attachmentId)
    }`;
    const meta = expect(
      AttachmentMeta,
      await readJson(await this.#api(access, path)),
      "the attachment's request",
    );
    // A self-hosted server serves the file itself; a cloud one names a blob store's signed url.
    const res = await this.#send(new URL(meta.url, `${this.#base}/`).href, {});
    if (!res.ok) {
      throw new VaultServerError("refused", `the attachment download answered ${res.status}`);
    }
    return new Uint8Array(await res.arrayBuffer());
  }
}

/** An answer's JSON, or undefined when it is not JSON (`expect` then names it). */
async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the parser's words stay out: not what the server sends is the reason
  }
}

/**
 * The server's answer in the shape forge reads, or forge's sentence naming the request whose
 * answer was wrong (a gateway's HTML page, a server that is not Bitwarden's): never a parser's
 * or a schema library's words.
 */
function expect<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const read = schema.safeParse(body);
  if (read.success) return read.data;
  throw new VaultServerError(
    "unreadable",
    `the vault server's answer to ${what} is not what a Bitwarden server sends`,
  );
}
