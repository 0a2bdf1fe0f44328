import { useState } from "preact/hooks";
import { client, useApp } from "./use.ts";

/** The composer: send a prompt, see the queued ones (and take one back), cancel the turn. */
export function Composer() {
  const s = useApp();
  const seat = s.seat!;
  const [text, setText] = useState("");
  const key = seat.slot;
  const send = () => {
    const words = text.trim();
    if (!words) return;
    client().command("prompt", { key, text: words, attachments: [] });
    setText("");
  };
  return (
    <div class="composer">
      {seat.queue.length > 0 && (
        <ul class="queue" data-testid="queue">
          {seat.queue.map((q) => (
            <li key={q.uuid}>
              <span class="source">{q.source}</span> {q.text}
              <button
                type="button"
                onClick={() =>
                  client().command("cancel_queued_prompt", {
                    key,
                    uuid: q.uuid,
                  })}
              >
                take back
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        data-testid="composer"
        placeholder="Tell the seat what to do (Enter sends, Shift+Enter a new line)"
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div class="composer-actions">
        <button
          type="button"
          data-testid="send"
          onClick={send}
          disabled={s.link !== "open"}
        >
          Send
        </button>
        {seat.header.turn_in_flight === true && (
          <button
            type="button"
            data-testid="cancel"
            onClick={() => client().command("cancel", { key })}
          >
            Cancel turn
          </button>
        )}
      </div>
    </div>
  );
}
