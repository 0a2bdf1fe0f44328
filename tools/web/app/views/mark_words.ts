import type { AgentRow } from "../../../../protocol/mod.ts";
import type { z } from "zod";

type Agent = z.infer<typeof AgentRow>;

/** One of a seat's marks: its glyph, and the words a touch screen shows beside it. */
export type MarkWords = { mark: string; glyph: string; words: string };

/**
 * A seat's marks after its lifecycle, each with its meaning in words: a desk reads them on
 * hover, a phone (no hover) beside the glyph, and a screen reader always. spec: home > agents.
 */
export function markWords(a: Agent, unseen: boolean): MarkWords[] {
  const marks: MarkWords[] = [];
  if (a.pending !== null) {
    const more = a.pending_depth > 0 ? ` (+${a.pending_depth})` : "";
    marks.push({
      mark: "needs-you",
      glyph: "◆",
      words: `waiting on you: ${a.pending.replaceAll("_", " ")}${more}`,
    });
  }
  if (a.reason !== null) marks.push({ mark: "failure", glyph: "✕", words: a.reason });
  if (a.has_background_work) {
    marks.push({ mark: "background", glyph: "⟳", words: "background work" });
  }
  if (unseen) marks.push({ mark: "unseen", glyph: "●", words: "finished while away" });
  return marks;
}
