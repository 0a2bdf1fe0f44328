import { noticeParts } from "./notice_words.ts";
import { useApp, useForge } from "./use.ts";
import { Said } from "../draw/said.tsx";

/**
 * The error frames this page was sent, newest last, in the core's own words: a refused prompt, a
 * refused answer, a read that could not run. spec: What a client receives > error. A seat's
 * refusal shows only while that seat is on screen, a keyless one everywhere. They are one forge's:
 * the scope's (a part of a home that holds several draws its own), else the focused one's.
 */
export function Notices() {
  const s = useApp();
  const c = useForge();
  const seat = s.seat?.slot;
  const shown = s.errors.filter((e) =>
    !e.seat || (seat && e.seat.org === seat.org && e.seat.project === seat.project &&
      e.seat.label === seat.label)
  );
  if (shown.length === 0) return null;
  return (
    <div class="notices" data-testid="notices">
      {shown.map((e, i) => {
        const said = noticeParts(e.what, e.why);
        return (
          <div class="notice" role="alert" key={`${e.at}:${i}`}>
            {/* One run of text: a phone wraps it inside, the head and its colon kept together. */}
            <span class="notice-words">
              <b>{said.head}</b>: <Said text={said.why} />
            </span>
            <button
              type="button"
              class="dismiss"
              aria-label="Dismiss"
              onClick={() => {
                s.errors = s.errors.filter((x) => x !== e);
                c.store.changed();
              }}
            >
              ✕
            </button>
          </div>
        );
      })}
    </div>
  );
}
