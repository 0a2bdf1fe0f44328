import { useState } from "preact/hooks";
import { BrowserHandOffRequest, SlackDraft } from "../../../../protocol/mod.ts";
import type { Ask } from "../model/asks.ts";
import { narrow } from "../net/narrow.ts";
import { seatName } from "./marks.tsx";
import { client, pageHref } from "./use.ts";

/**
 * A Slack draft waiting for a person: what would go out, where, split as it would be sent;
 * Approve sends it, Decline drops it. spec: session > pending_asks (a Slack draft);
 * respond_slack_post; the original's slack_post_pending.
 */
export function SlackCard(props: { ask: Ask }) {
  const draft = SlackDraft.safeParse(props.ask.request);
  const key = client().state.seat!.slot;
  const answer = (approved: boolean) =>
    client().command("respond_slack_post", { key, id: props.ask.id, approved });
  if (!draft.success) {
    return <div class="muted">A Slack draft this page cannot read; another client can.</div>;
  }
  const d = draft.data;
  return (
    <>
      <div class="ask-title">
        Slack {d.action} in {d.workspace} · {d.conversation}
        {d.thread_ts && <span class="muted">(in a thread)</span>}
      </div>
      {d.parts.map((p, i) => (
        <pre class="slack-part" data-testid="slack-part" key={i}>
          {d.parts.length > 1 && <span class="muted">{i + 1}/{d.parts.length} </span>}
          {p}
        </pre>
      ))}
      <div class="ask-actions">
        <button
          type="button"
          class="opt-allow"
          data-testid="slack-approve"
          onClick={() => answer(true)}
        >
          Approve
        </button>
        <button
          type="button"
          class="opt-deny"
          data-testid="slack-decline"
          onClick={() => answer(false)}
        >
          Decline
        </button>
      </div>
    </>
  );
}

/**
 * A browser hand-off: the agent asks the person to act in a tab. Open attaches that page by its
 * CDP target id (browser_view_page, because a tab number names another tab after a host
 * replacement) on the seat's Browser tab; Done and Not done answer the ask. spec: browser_view
 * and browser_view_page; respond_browser_hand_off.
 */
export function BrowserHandOffCard(props: { ask: Ask }) {
  const h = narrow(BrowserHandOffRequest, "browser hand-off", props.ask.request);
  const seat = client().state.seat!.slot;
  const [why, setWhy] = useState<string | null>(null);
  const done = (value: boolean) =>
    client().command("respond_browser_hand_off", { key: seat, id: props.ask.id, done: value });
  if (!h.ok) return <div class="muted">A hand-off this page cannot read.</div>;
  const open = async () => {
    location.hash = pageHref(client(), `seat/${seatName(seat)}/browser`);
    setWhy(await client().browser.viewPage(seat, h.data.page));
  };
  return (
    <>
      <div class="ask-title">Act in the browser (tab {h.data.tab})</div>
      <div>{h.data.reason}</div>
      {why && <div class="notice" data-testid="handoff-why">{why}</div>}
      <div class="ask-actions">
        <button type="button" data-testid="handoff-browser-open" onClick={open}>Open</button>
        <button
          type="button"
          class="opt-allow"
          data-testid="handoff-browser-done"
          onClick={() => done(true)}
        >
          Done
        </button>
        <button type="button" class="opt-deny" onClick={() => done(false)}>Not done</button>
      </div>
    </>
  );
}
