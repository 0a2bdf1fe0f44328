import { useState } from "preact/hooks";
import type { Wire } from "../../../../protocol/mod.ts";
import type { Ask } from "../model/asks.ts";
import { vaultAnswer, type VaultChoice } from "../model/vault.ts";
import { VaultAskRequest } from "../../../../protocol/mod.ts";
import { client } from "./use.ts";

type Obj = Record<string, Wire>;

/**
 * A held vault call: what the agent wants (the card draws no secret), and approve - with the
 * master password and code when the shared session is locked -, send back with a note, or
 * decline. A restamped card (the session unlocked elsewhere) replaces this one by id.
 */
export function VaultCard(props: { ask: Ask }) {
  const r = props.ask.request;
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [note, setNote] = useState("");
  const needsUnlock = r.needs_unlock === true;
  const send = (choice: VaultChoice) =>
    client().command("respond_vault_ask", {
      key: client().state.seat!.slot,
      id: props.ask.id,
      answer: vaultAnswer(choice),
    });
  const card = VaultAskRequest.safeParse(r);
  const attachment = card.success ? card.data.attachment : null;
  const diff = card.success ? card.data.diff ?? [] : [];
  return (
    <>
      <div class="ask-title">
        Vault {String(r.tool)}: {String(r.item ?? r.query ?? "")}
        {r.field ? <span class="muted">· {String(r.field)}</span> : null}
      </div>
      {diff.length > 0 && (
        <div class="muted">{diff.map((d) => `${d.field} ${d.change}`).join(", ")}</div>
      )}
      {attachment && (
        <div class="muted">
          {String(attachment.name)}
          {attachment.size !== null ? ` (${attachment.size} bytes)` : ""}
        </div>
      )}
      {needsUnlock && (
        <div class="ask-actions">
          <input
            type="password"
            placeholder="Master password"
            autocomplete="off"
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
          <input
            placeholder="2FA code"
            inputMode="numeric"
            value={code}
            onInput={(e) => setCode((e.target as HTMLInputElement).value)}
          />
        </div>
      )}
      <input
        placeholder="Note (with Send back)"
        value={note}
        onInput={(e) => setNote((e.target as HTMLInputElement).value)}
      />
      <div class="ask-actions">
        <button
          type="button"
          class="opt-allow"
          disabled={needsUnlock && !password}
          onClick={() => send({ kind: "approve", needsUnlock, password, code })}
        >
          {needsUnlock ? "Unlock and approve" : "Approve"}
        </button>
        <button type="button" onClick={() => send({ kind: "send_back", note })}>Send back</button>
        <button type="button" class="opt-deny" onClick={() => send({ kind: "decline" })}>
          Decline
        </button>
      </div>
    </>
  );
}
