/**
 * forge's sentences mark names with markdown code spans (`orgs[0].projects[0]`, `set_model`).
 * The page draws them as code, not as literal backticks: this splits a sentence into its plain
 * runs and its code runs, each drawn as text (never parsed as HTML), so a sentence carries no
 * markup into the page. An unpaired backtick is a plain character.
 */
export interface SpanPart {
  code: boolean;
  text: string;
}

export function codeSpans(sentence: string): SpanPart[] {
  const parts: SpanPart[] = [];
  const span = /`([^`]+)`/g;
  let from = 0;
  for (const m of sentence.matchAll(span)) {
    if (m.index > from) parts.push({ code: false, text: sentence.slice(from, m.index) });
    parts.push({ code: true, text: m[1] });
    from = m.index + m[0].length;
  }
  if (from < sentence.length) parts.push({ code: false, text: sentence.slice(from) });
  return parts;
}
