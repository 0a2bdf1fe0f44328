import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from "@tanstack/virtual-core";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Turn } from "../model/seat.ts";
import { viewDrawn } from "../pwa/shell.ts";
import { TurnView } from "./turn.tsx";
import { client, useApp } from "./use.ts";

/** A turn's height before it is measured; the list corrects itself as turns are drawn. */
const ESTIMATE_PX = 140;
/** Turns drawn beyond each edge of the window, so a scroll finds them ready. */
const OVERSCAN = 3;

/**
 * The conversation, virtualised: only the turns in (and just beyond) the window are in the DOM,
 * measured as they draw, the list anchored to its end so a page prepended above keeps the
 * reader's place and new turns are followed while the reader is at the foot. Reaching the top
 * asks the page above with `more`. spec: more; "the one field that tells a reader's words from
 * forge's" (source).
 */
export function Chat() {
  const s = useApp();
  const seat = s.seat!;
  const box = useRef<HTMLDivElement>(null);
  const [, redraw] = useState(0);
  const turns = useRef<Turn[]>(seat.turns);
  turns.current = seat.turns;
  const v = useMemo(
    () =>
      new Virtualizer<HTMLDivElement, HTMLDivElement>({
        count: 0,
        getScrollElement: () => box.current,
        estimateSize: () => ESTIMATE_PX,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        onChange: () => redraw((n) => n + 1),
        getItemKey: (i) => turns.current[i]?.id ?? -i,
        overscan: OVERSCAN,
        anchorTo: "end",
        followOnAppend: true,
      }),
    [seat],
  );
  v.setOptions({ ...v.options, count: seat.turns.length });
  useLayoutEffect(() => v._didMount(), [v]);
  useLayoutEffect(() => v._willUpdate());

  // A seat opens at its newest turn.
  const opened = useRef<Virtualizer<HTMLDivElement, HTMLDivElement> | null>(null);
  useLayoutEffect(() => {
    if (opened.current === v) return;
    // An empty conversation is drawn as it is.
    if (seat.turns.length === 0) return viewDrawn();
    opened.current = v;
    v.scrollToEnd();
    viewDrawn();
  });

  // The reader's own words bring a scrolled-up reader back to the foot; a delivery's do not.
  const lastId = seat.turns.at(-1)?.id ?? 0;
  const lastSeen = useRef(lastId);
  useEffect(() => {
    if (lastId !== lastSeen.current && seat.turns.at(-1)?.messages[0]?.source === "you") {
      v.scrollToEnd();
    }
    lastSeen.current = lastId;
  }, [lastId]);

  // The top of what is held is in the window: ask for the page above.
  const items = v.getVirtualItems();
  const atTop = items.length === 0 || items[0].index === 0;
  useEffect(() => {
    if (atTop && opened.current === v && seat.cursor !== null && !s.walking) client().walkUp();
  });

  return (
    <div class="chat-wrap">
      <div class="history-edge" data-testid="history-edge">
        {seat.cursor === null
          ? <span data-testid="history-start">Start of the conversation</span>
          : s.walkFailed
          ? (
            <span class="error" data-testid="walk-failed">
              {s.walkFailed}{" "}
              <button type="button" onClick={() => client().walkAgain()}>Retry</button>
            </span>
          )
          : <span>{s.walking ? "Reading earlier turns…" : "Earlier turns above"}</span>}
      </div>
      <div class="chat" ref={box} data-testid="chat">
        <div class="chat-list" style={{ height: `${v.getTotalSize()}px` }}>
          {items.map((it) => {
            const t = seat.turns[it.index];
            if (!t) return null;
            return (
              <div
                key={it.key}
                data-index={it.index}
                ref={(el) => {
                  if (el) v.measureElement(el);
                }}
                class="turn-slot"
                style={{ transform: `translateY(${it.start}px)` }}
              >
                <TurnView turn={t} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
