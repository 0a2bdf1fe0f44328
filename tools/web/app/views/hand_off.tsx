import { useState } from "preact/hooks";
import type { HandOffAnswer } from "../../../../protocol/mod.ts";
import type { Ask } from "../model/asks.ts";
import { fromBase64 } from "../net/base64.ts";
import { client, useApp } from "./use.ts";

/**
 * A document hand-off: the agent hands the person a document and waits for a verdict, never a
 * bare done. spec: answer_document_hand_off ({"approve": ...}, {"feedback": ...} or "not_now");
 * document_read opens it, with `reviewable` as the hand-off asked.
 */
export function DocumentHandOffCard(props: { ask: Ask }) {
  const r = props.ask.request;
  const s = useApp();
  const [note, setNote] = useState("");
  const seat = client().state.seat!.slot;
  const path = typeof r.path === "string" ? r.path : null;
  const answer = (value: HandOffAnswer) =>
    client().send({ kind: "answer_document_hand_off", key: seat, id: props.ask.id, answer: value });
  const verdict = { review_id: null, note: note.trim() || null };
  return (
    <>
      <div class="ask-title">Read {path ?? "a document"}</div>
      {typeof r.reason === "string" && <div class="muted">{r.reason}</div>}
      {path && (
        <button
          type="button"
          data-testid="handoff-open"
          onClick={() =>
            client().send({
              kind: "document_read",
              session: seat,
              path,
              reviewable: r.reviewable === true,
            })}
        >
          Open
        </button>
      )}
      {s.document && s.document.path === path && (
        <pre class="document" data-testid="handed-document">
          {new TextDecoder().decode(fromBase64(String(s.document.bytes)))}
        </pre>
      )}
      <input
        placeholder="Your note (optional)"
        value={note}
        onInput={(e) => setNote((e.target as HTMLInputElement).value)}
      />
      <div class="ask-actions">
        <button
          type="button"
          class="opt-allow"
          data-testid="handoff-approve"
          onClick={() => answer({ approve: verdict })}
        >
          Approve
        </button>
        <button type="button" onClick={() => answer({ feedback: verdict })}>Send back</button>
        <button type="button" class="opt-deny" onClick={() => answer("not_now")}>Not now</button>
      </div>
    </>
  );
}
