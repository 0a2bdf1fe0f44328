import { Buffer } from "node:buffer";
import { argon2id } from "hash-wasm";

// The Bitwarden client-side crypto forge needs to open a personal vault, on WebCrypto plus
// hash-wasm's Argon2id. Every construction here was checked against the official `bw` CLI in
// both directions (its login hash equals ours; it decrypts what we encrypt).
//
//   master key  = PBKDF2-SHA256(password, lower(trim(email)), n, 32)                    kdf 0
//               | Argon2id(password, SHA-256(lower(trim(email))), t, m MiB, p, 32)     kdf 1
//   auth hash   = PBKDF2-SHA256(master key, salt = password, 1, 32)  -> connect/token password
//   stretched   = HKDF-Expand(master key, "enc") || HKDF-Expand(master key, "mac")
//   user key    = 64 bytes (enc 32 || mac 32), held by the server as an EncString under stretched
//   EncString 2 = "2." iv "|" AES-256-CBC ciphertext "|" HMAC-SHA256(mac, iv || ct), base64 each

/** Bytes backed by a plain ArrayBuffer, which is what WebCrypto accepts. */
export type Bytes = Uint8Array<ArrayBuffer>;
/** A symmetric key pair as Bitwarden splits it: AES key and HMAC key, 32 bytes each. */
export interface SymKey {
  enc: Bytes;
  mac: Bytes;
}
/** The account's key-derivation settings, as prelogin answers them. */
export type Kdf =
  | { type: 0; iterations: number }
  | { type: 1; iterations: number; memory: number; parallelism: number };

/** Thrown when an EncString's MAC does not verify: a wrong key, or the account's keys rotated. */
export class MacMismatch extends Error {
  constructor() {
    super("the vault's data did not verify under the key held (the keys may have rotated)");
    this.name = "MacMismatch";
  }
}

const encoder = new TextEncoder();
export const utf8 = (text: string): Bytes => encoder.encode(text) as Bytes;
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
export const toBase64 = (bytes: Uint8Array): string => view(bytes).toString("base64");
/** Strict: atob throws on a character outside the alphabet, where Buffer would skip it. */
export function fromBase64(text: string): Bytes {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
export const toBase64Url = (bytes: Uint8Array): string => view(bytes).toString("base64url");

async function pbkdf2(secret: Bytes, salt: Bytes, iterations: number): Promise<Bytes> {
  const key = await crypto.subtle.importKey("raw", secret, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

export async function hmacSha256(key: Bytes, data: Bytes): Promise<Bytes> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

/** Derives the master key from the password; the slow step (the KDF) of every unlock. */
export async function deriveMasterKey(password: string, email: string, kdf: Kdf): Promise<Bytes> {
  const salt = utf8(email.trim().toLowerCase());
  if (kdf.type === 0) return await pbkdf2(utf8(password), salt, kdf.iterations);
  const saltHash = new Uint8Array(await crypto.subtle.digest("SHA-256", salt));
  const out = await argon2id({
    password,
    salt: saltHash,
    iterations: kdf.iterations,
    memorySize: kdf.memory * 1024, // hash-wasm counts KiB; Bitwarden's setting is MiB
    parallelism: kdf.parallelism,
    hashLength: 32,
    outputType: "binary",
  });
  return new Uint8Array(out);
}

/** The hash the password grant sends in place of the password (one PBKDF2 round). */
export async function authHash(masterKey: Bytes, password: string): Promise<string> {
  return toBase64(await pbkdf2(masterKey, utf8(password), 1));
}

/** HKDF-Expand only (no extract), one block: HMAC(prk, info || 0x01). */
async function expand(prk: Bytes, info: string): Promise<Bytes> {
  const label = utf8(info);
  const msg = new Uint8Array(label.length + 1);
  msg.set(label);
  msg[label.length] = 1;
  return await hmacSha256(prk, msg);
}

/** The key that wraps the user key: the master key stretched to an enc/mac pair. */
export async function stretch(masterKey: Bytes): Promise<SymKey> {
  return { enc: await expand(masterKey, "enc"), mac: await expand(masterKey, "mac") };
}

export function splitKey(bytes: Uint8Array): SymKey {
  if (bytes.length !== 64) throw new Error(`a vault key is 64 bytes, not ${bytes.length}`);
  return { enc: bytes.slice(0, 32), mac: bytes.slice(32, 64) };
}
export function joinKey(key: SymKey): Bytes {
  const out = new Uint8Array(64);
  out.set(key.enc);
  out.set(key.mac, 32);
  return out;
}

function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function aesCbc(op: "encrypt" | "decrypt", key: Bytes, iv: Bytes, data: Bytes) {
  const k = await crypto.subtle.importKey("raw", key, "AES-CBC", false, [op]);
  const out = await crypto.subtle[op]({ name: "AES-CBC", iv }, k, data);
  return new Uint8Array(out);
}

async function verifyMac(key: SymKey, iv: Bytes, ct: Bytes, mac: Bytes): Promise<void> {
  const want = await hmacSha256(key.mac, concat(iv, ct));
  let diff = want.length ^ mac.length;
  for (let i = 0; i < want.length && i < mac.length; i++) diff |= want[i] ^ mac[i];
  if (diff !== 0) throw new MacMismatch();
}

/** Encrypts to an EncString of type 2 (AES-256-CBC, HMAC-SHA256). */
export async function encrypt(plain: Bytes, key: SymKey): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const ct = await aesCbc("encrypt", key.enc, iv, plain);
  const mac = await hmacSha256(key.mac, concat(iv, ct));
  return `2.${toBase64(iv)}|${toBase64(ct)}|${toBase64(mac)}`;
}
export const encryptText = (text: string, key: SymKey) => encrypt(utf8(text), key);

/** Decrypts an EncString of type 2; throws `MacMismatch` when it does not verify. */
export async function decrypt(enc: string, key: SymKey): Promise<Bytes> {
  const dot = enc.indexOf(".");
  const type = enc.slice(0, dot);
  if (type !== "2") throw new Error(`an EncString of type ${type} is not one a user vault uses`);
  const parts = enc.slice(dot + 1).split("|");
  if (parts.length !== 3) throw new Error("an EncString of type 2 has three parts");
  const [iv, ct, mac] = parts.map(fromBase64);
  await verifyMac(key, iv, ct, mac);
  return await aesCbc("decrypt", key.enc, iv, ct);
}
export const decryptText = async (enc: string, key: SymKey) => fromUtf8(await decrypt(enc, key));

/** An attachment's file body: the binary EncArrayBuffer (type byte 2, iv, mac, ciphertext). */
export async function encryptFile(plain: Bytes, key: SymKey): Promise<Bytes> {
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const ct = await aesCbc("encrypt", key.enc, iv, plain);
  const mac = await hmacSha256(key.mac, concat(iv, ct));
  return concat(new Uint8Array([2]), iv, mac, ct);
}
export async function decryptFile(body: Bytes, key: SymKey): Promise<Bytes> {
  if (body.length < 49 || body[0] !== 2) throw new Error("the attachment is not an encrypted file");
  const iv = body.slice(1, 17), mac = body.slice(17, 49), ct = body.slice(49);
  await verifyMac(key, iv, ct, mac);
  return await aesCbc("decrypt", key.enc, iv, ct);
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits): the authenticator two-factor provider (0). */
export async function totp(secretBase32: string, atMs = Date.now()): Promise<string> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secretBase32.replace(/=+$/, "").toUpperCase()) {
    const v = alphabet.indexOf(c);
    if (v < 0) throw new Error("a TOTP secret is base32");
    bits += v.toString(2).padStart(5, "0");
  }
  const secret = new Uint8Array(Math.floor(bits.length / 8));
  for (let i = 0; i < secret.length; i++) secret[i] = parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(Math.floor(atMs / 30_000)));
  const k = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  const h = new Uint8Array(await crypto.subtle.sign("HMAC", k, counter));
  const off = h[19] & 0xf;
  const code = ((h[off] & 0x7f) << 24 | h[off + 1] << 16 | h[off + 2] << 8 | h[off + 3]) %
    1_000_000;
  return String(code).padStart(6, "0");
}
