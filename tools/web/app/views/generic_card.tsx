import { type Ask, genericAnswer } from "../model/asks.ts";
import { client } from "./use.ts";

/** An ask of a kind this page has no card for, drawn from its `request`. */
export function GenericCard(props: { ask: Ask }) {
  const a = props.ask;
  const how = genericAnswer(a.kind);
  const key = client().state.seat!.slot;
  const send = (value: boolean) =>
    client().commandChecked(how!.command, { key, id: a.id, [how!.field]: value });
  return (
    <>
      <div class="ask-title">{a.kind.replaceAll("_", " ")}</div>
      <dl class="ask-fields">
        {Object.entries(a.request).map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{typeof v === "string" ? v : JSON.stringify(v)}</dd>
          </>
        ))}
      </dl>
      {how
        ? (
          <div class="ask-actions">
            <button
              type="button"
              data-testid="generic-yes"
              onClick={() => send(true)}
            >
              {how.field === "done" ? "Done" : "Approve"}
            </button>
            <button
              type="button"
              data-testid="generic-no"
              onClick={() => send(false)}
            >
              {how.field === "done" ? "Not done" : "Decline"}
            </button>
          </div>
        )
        : (
          <div class="muted">
            This client cannot answer a {a.kind} ask yet; another client can.
          </div>
        )}
    </>
  );
}
