import type { VaultAnswer } from "../../../../protocol/mod.ts";

/**
 * The `respond_vault_ask` answer a vault card sends (protocol/vault.ts's VaultAnswer): approve,
 * with the unlock material when the card said the session is locked; send back with a note; or
 * decline. spec: Editing the config > vault ("approve, send_back with a note, or decline, plus the
 * unlock material when the card asked for it"). Pure.
 */
export type VaultChoice =
  | { kind: "approve"; needsUnlock: boolean; password: string; code: string }
  | { kind: "send_back"; note: string }
  | { kind: "decline" };

export function vaultAnswer(choice: VaultChoice): VaultAnswer {
  switch (choice.kind) {
    case "approve":
      return {
        approve: {
          unlock: choice.needsUnlock
            ? { password: choice.password, code: choice.code.trim() || null }
            : null,
        },
      };
    case "send_back":
      return { send_back: { note: choice.note } };
    case "decline":
      return "decline";
  }
}
