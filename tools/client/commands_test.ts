import { assert, assertEquals } from "../../tests/assert.ts";
import { ForgeRefusal } from "./errors.ts";
import { readReply } from "./commands.ts";

// spec: What a client sends > command > reply_to: "the biometric four with the released blob";
// "A refusal arrives in that same reply, as the body of the answer rather than as an error".
// biometric_release's answer and its refusal are both strings: the blob's schema (base64 text,
// protocol/vault.ts) is what tells them apart.

/** What `fn` threw; fails when it returned. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("it did not throw");
}

Deno.test("biometric_release: the blob is the answer, forge's sentence a refusal", () => {
  assertEquals(readReply("biometric_release", "c2VhbGVkIGJ5dGVz"), "c2VhbGVkIGJ5dGVz");
  assertEquals(readReply("biometric_release", "AbC-_9=="), "AbC-_9==");
  for (
    const why of [
      "biometric_release: phone has no enrolment for vault",
      // A disabled subsystem's refusal names no command.
      "the vault subsystem is turned off by vault.enabled in forge.toml",
    ]
  ) {
    const err = thrown(() => readReply("biometric_release", why));
    assert(err instanceof ForgeRefusal, String(err));
    assertEquals([err.what, err.why], ["biometric_release", why]);
  }
});

Deno.test("the other biometric replies are told from a refusal by their type", () => {
  assertEquals(readReply("biometric_enrol", true), true);
  assertEquals(readReply("biometric_rewrite", false), false);
  const err = thrown(() => readReply("biometric_rewrite", "biometric_rewrite: no vault"));
  assert(err instanceof ForgeRefusal, String(err));
});
