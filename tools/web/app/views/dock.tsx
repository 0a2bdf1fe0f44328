import { useState } from "preact/hooks";
import { QuestionRequest } from "../../../../protocol/mod.ts";
import type { Ask } from "../model/asks.ts";
import { keepDockFolded, readDockFolded } from "../model/dock_fold.ts";
import { pageStorage } from "../model/kept.ts";
import { narrow } from "../net/narrow.ts";
import { DocumentHandOffCard } from "./hand_off.tsx";
import { BrowserHandOffCard, SlackCard } from "./held_cards.tsx";
import { client, useApp } from "./use.ts";
import { GenericCard } from "./generic_card.tsx";
import { PermissionCard } from "./permission_card.tsx";
import { VaultCard } from "./vault_card.tsx";

/**
 * The asks dock: every ask the seat holds, oldest first. This client declared `answering`, so it
 * must draw whatever it is handed (spec: subscribe > answering): permission and question asks have
 * their own cards; any other kind is drawn from its `request` and answered through the protocol's
 * `respond_<kind>` command, so a new subsystem's ask appears here without code. A person folds
 * it away to read the conversation (a phone's screen is mostly dock when asks wait): its head
 * still counts the asks, and the choice is kept across reloads (model/dock_fold.ts).
 */
export function Dock() {
  const s = useApp();
  const [folded, setFolded] = useState(() => readDockFolded(pageStorage()));
  const asks = s.seat?.asks ?? [];
  if (asks.length === 0) return null;
  const fold = (next: boolean) => {
    keepDockFolded(pageStorage(), next);
    setFolded(next);
  };
  // A question batch is answered front first: only each call's lowest open question is live.
  const front = new Map<string, number>();
  for (const a of asks) {
    if (a.kind === "question" && a.questionIndex !== null) {
      front.set(a.id, Math.min(front.get(a.id) ?? Infinity, a.questionIndex));
    }
  }
  return (
    <div class={`dock${folded ? " folded" : ""}`} data-testid="dock">
      <div class="dock-head">
        <span data-testid="dock-count">
          {asks.length} {asks.length === 1 ? "ask waits" : "asks wait"} on you
        </span>
        <button
          type="button"
          data-testid="dock-fold"
          aria-expanded={!folded}
          onClick={() => fold(!folded)}
        >
          {folded ? "Show" : "Fold"}
        </button>
      </div>
      {!folded && asks.map((a) => (
        <div
          class={`ask ask-${a.kind}`}
          data-testid={`ask-${a.kind}`}
          key={`${a.kind}:${a.id}:${a.questionIndex}`}
        >
          <Card ask={a} live={front.get(a.id) === a.questionIndex} />
        </div>
      ))}
    </div>
  );
}

/** The card an ask kind draws as: its own where this page has one, else the generic one. */
function Card(props: { ask: Ask; live: boolean }) {
  switch (props.ask.kind) {
    case "permission":
      return <PermissionCard ask={props.ask} />;
    case "question":
      return <QuestionCard ask={props.ask} live={props.live} />;
    case "document_hand_off":
      return <DocumentHandOffCard ask={props.ask} />;
    case "vault_ask":
      return <VaultCard ask={props.ask} />;
    case "slack_post":
      return <SlackCard ask={props.ask} />;
    case "browser_hand_off":
      return <BrowserHandOffCard ask={props.ask} />;
    default:
      return <GenericCard ask={props.ask} />;
  }
}

function QuestionCard(props: { ask: Ask; live: boolean }) {
  const r = narrow(QuestionRequest, "question ask", props.ask.request);
  const [chosen, setChosen] = useState<string[]>([]);
  const [notes, setNotes] = useState("");
  const key = client().state.seat!.slot;
  if (!r.ok) return <GenericCard ask={props.ask} />;
  const { prompt } = r.data;
  const multi = prompt.multi_select;
  const toggle = (id: string) =>
    setChosen(
      multi ? (chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]) : [id],
    );
  const submit = () =>
    client().command("respond_question", {
      key,
      tool_id: props.ask.id,
      outcome: {
        outcome: "answered",
        selected_option_ids: chosen,
        ...(notes.trim() ? { annotation: { notes } } : {}),
      },
    });
  return (
    <>
      <div class="ask-title">
        {prompt.header}: {prompt.question}
        <span class="muted">({r.data.question_index + 1}/{r.data.total_questions})</span>
      </div>
      <div class="ask-actions">
        {prompt.options.map((o) => (
          <label class="choice" key={o.option_id}>
            <input
              type={multi ? "checkbox" : "radio"}
              checked={chosen.includes(o.option_id)}
              onChange={() => toggle(o.option_id)}
              disabled={!props.live}
            />
            {o.label}
            {o.description ? <span class="muted">— {o.description}</span> : null}
          </label>
        ))}
      </div>
      <input
        placeholder="Other: your own words"
        value={notes}
        onInput={(e) => setNotes(e.currentTarget.value)}
      />
      <button type="button" data-testid="answer" disabled={!props.live} onClick={submit}>
        Answer
      </button>
    </>
  );
}
