import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { VAULT_TOOLS } from "./tools.ts";

/** The vault: parked vault calls and device enrolment. spec: Editing the config > vault. */
export const vaultManifest = defineSubsystem({
  id: "vault",
  note: "the shared vault session and its parked calls",
  switch: "vault.enabled",
  area: {
    id: "vault",
    name: "vault",
    note: "the vault the seats' vault tools reach",
    keys: [
      key.bool("vault.enabled", false, "restart", "turn the vault on"),
      key.string("vault.server_url", null, "restart", "the vault server"),
      key.string("vault.email", null, "restart", "the account's email"),
      key.number(
        "vault.idle_lock_minutes",
        15,
        "live",
        "the shared session locks after this long idle",
        [1, 1440],
      ),
    ],
  },
  verbs: [],
  commands: [
    "respond_vault_ask",
    "biometric_release",
    "biometric_enrol",
    "biometric_rewrite",
    "vault_enrolment_material",
    "vault_lock",
  ],
  subjects: [],
  binary: [],
  tools: VAULT_TOOLS,
  load: () => import("./mod.ts"),
});
