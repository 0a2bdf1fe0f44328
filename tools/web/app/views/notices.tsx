import { noticeWhy } from "./notice_words.ts";
import { client, useApp } from "./use.ts";

/**
 * The error frames this page was sent, newest last, in the core's own words: a refused prompt, a
 * refused answer, a read that could not run. spec: What a client receives > error. A seat's
 * refusal shows only while that seat is on screen, a keyless one everywhere.
 */
export function Notices() {
  const s = useApp();
  const seat = s.seat?.slot;
  const shown = s.errors.filter((e) =>
    !e.seat || (seat && e.seat.org === seat.org && e.seat.project === seat.project &&
      e.seat.label === seat.label)
  );
  if (shown.length === 0) return null;
  return (
    <div class="notices" data-testid="notices">
      {shown.map((e, i) => (
        <div class="notice" role="alert" key={`${e.at}:${i}`}>
          <b>{e.what}</b>: {noticeWhy(e.what, e.why)}
          <button
            type="button"
            class="dismiss"
            onClick={() => {
              s.errors = s.errors.filter((x) => x !== e);
              client().store.changed();
            }}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
