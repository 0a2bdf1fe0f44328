import { assertEquals } from "../../../../tests/assert.ts";
import { VaultAnswer } from "../../../../protocol/vault.ts";
import { vaultAnswer } from "./vault.ts";

// Every answer the vault card can send is one the protocol's VaultAnswer accepts.
Deno.test("vault card: approve (locked and not), send back and decline parse as VaultAnswer", () => {
  const answers = [
    vaultAnswer({ kind: "approve", needsUnlock: false, password: "", code: "" }),
    vaultAnswer({ kind: "approve", needsUnlock: true, password: "hunter2", code: "123456" }),
    vaultAnswer({ kind: "approve", needsUnlock: true, password: "hunter2", code: " " }),
    vaultAnswer({ kind: "send_back", note: "use the other item" }),
    vaultAnswer({ kind: "decline" }),
  ];
  for (const a of answers) VaultAnswer.parse(a);
  assertEquals(answers[2], { approve: { unlock: { password: "hunter2", code: null } } });
});
