/**
 * How `voice__say` cuts an update into clips: at sentence boundaries, so the first
 * clip plays while the rest render. A sentence longer than `MAX_CLIP_CHARS` is cut again at its
 * last comma or space before the bound, so no single clip keeps a listener waiting long.
 */

/** The most text one `voice__say` takes: about three minutes of speech. */
export const MAX_SAY_CHARS = 2000;
/** The longest clip's text. */
export const MAX_CLIP_CHARS = 300;

/** The sentences of `text`, in order, trimmed, none empty. */
export function sentences(text: string): string[] {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat === "") return [];
  // A boundary: . ! ? (or a run of them) followed by a space; "e.g. x" cuts too, harmlessly.
  const parts = flat.split(/(?<=[.!?…]["')\]]?)\s+/);
  return parts.flatMap((p) => cutLong(p.trim())).filter((p) => /[\p{L}\p{N}]/u.test(p));
}

function cutLong(sentence: string): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_CLIP_CHARS) {
    const head = rest.slice(0, MAX_CLIP_CHARS);
    const at = Math.max(head.lastIndexOf(", "), head.lastIndexOf("; "));
    const cut = at > MAX_CLIP_CHARS / 3 ? at + 1 : head.lastIndexOf(" ");
    const end = cut > 0 ? cut : MAX_CLIP_CHARS;
    out.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest !== "") out.push(rest);
  return out;
}
