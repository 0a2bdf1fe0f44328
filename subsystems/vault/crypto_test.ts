import { assert, assertEquals, assertRejects } from "../../tests/assert.ts";
import {
  authHash,
  decrypt,
  decryptFile,
  decryptText,
  deriveMasterKey,
  encryptFile,
  encryptText,
  joinKey,
  MacMismatch,
  splitKey,
  stretch,
  totp,
  utf8,
} from "./crypto.ts";

// The interoperable half (our hashes and EncStrings against the real client) is proven by
// tests/vault_bw_cli_test.ts; these pin the constructions' own properties.

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((v, i) => v === b[i]);
const key = () => splitKey(crypto.getRandomValues(new Uint8Array(64)));

Deno.test("an EncString round-trips under its key and names a MAC failure as rotated keys", async () => {
  const k = key();
  const enc = await encryptText("s3cret", k);
  assertEquals(enc.split(".")[0], "2");
  assertEquals(await decryptText(enc, k), "s3cret");
  await assertRejects(() => decrypt(enc, key()), /keys may have rotated/);
  assertEquals(new MacMismatch().name, "MacMismatch");
});

Deno.test("an EncString of another type is refused in words", async () => {
  await assertRejects(() => decrypt("0.abc|def", key()), /type 0/);
});

Deno.test("an attachment body round-trips and a flipped byte fails its MAC", async () => {
  const k = key();
  const body = await encryptFile(utf8("file bytes"), k);
  assertEquals(new TextDecoder().decode(await decryptFile(body, k)), "file bytes");
  body[body.length - 1] ^= 1;
  await assertRejects(() => decryptFile(body, k), /keys may have rotated/);
});

Deno.test("TOTP follows RFC 6238's SHA-1 vector (59 s -> 94287082, six digits)", async () => {
  // The RFC's secret "12345678901234567890" in base32.
  assertEquals(await totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000), "287082");
  assertEquals(await totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 1111111109_000), "081804");
});

Deno.test("the KDF salts by the trimmed, lower-cased email; both KDFs give 32 bytes", async () => {
  const a = await deriveMasterKey("pw", " Probe@Example.invalid ", { type: 0, iterations: 1000 });
  const b = await deriveMasterKey("pw", "probe@example.invalid", { type: 0, iterations: 1000 });
  assertEquals(a, b);
  const argon = await deriveMasterKey("pw", "probe@example.invalid", {
    type: 1,
    iterations: 1,
    memory: 1,
    parallelism: 1,
  });
  assertEquals(argon.length, 32);
  assert(!sameBytes(argon, a));
  assert(await authHash(a, "pw") !== await authHash(a, "other"));
  const s = await stretch(a);
  assertEquals(joinKey(s).length, 64);
  assert(!sameBytes(s.enc, s.mac));
});
