import type { DictateAxes } from "../../protocol/mod.ts";

/**
 * Turns a decoder's words into the text a take lands, by the take's three axes. Deterministic
 * text rules, no model (docs/dictate.md, "How the axes change the words"):
 *
 * - spoken punctuation ("comma", "period"/"full stop", "question mark", "exclamation mark",
 *   "colon", "new line", "new paragraph") becomes the mark, except under `as_spoken`;
 * - context `code` also turns "dot", "slash", "underscore", "dash", "open/close paren" and
 *   "equals" into symbols glued to their neighbours ("main dot ts" -> "main.ts");
 * - styling `verbatim` changes no letter and adds no mark; `casual` contracts ("do not" ->
 *   "don't") and adds no final mark; `semi_formal` capitalises each sentence and "i", and ends
 *   each with a period; `formal` does the same and expands contractions;
 * - structure `prose` joins the sentences, `bullets` puts each on its own "- " line, `as_spoken`
 *   keeps one line of words;
 * - context `email` sets a leading "hi/hello/dear ..." sentence on its own line with a comma;
 *   `chat` and `code` drop the final period.
 */
export function normalize(words: string, axes: DictateAxes): string {
  const tokens = words.toLowerCase().split(/\s+/).map((w) => w.replace(/\(\d+\)$/, "")).filter(
    (w) => w.length > 0 && !/^<.*>$|^\[.*\]$/.test(w),
  );
  if (tokens.length === 0) return "";
  const marked = axes.structure === "as_spoken" ? tokens : spokenMarks(tokens, axes.context);
  let sentences = split(marked);
  sentences = sentences.map((s) => style(s, axes));
  if (
    axes.context === "email" && sentences.length > 1 && /^(hi|hello|dear)\b/i.test(sentences[0])
  ) {
    sentences[0] = sentences[0].replace(/[.!?]?$/, ",\n");
  }
  if ((axes.context === "chat" || axes.context === "code") && sentences.length > 0) {
    const last = sentences.length - 1;
    sentences[last] = sentences[last].replace(/\.$/, "");
  }
  if (axes.structure === "bullets") return sentences.map((s) => `- ${s}`).join("\n");
  return sentences.join(" ").replace(/ ?\n ?/g, "\n");
}

const MARKS: [string[], string][] = [
  [["new", "paragraph"], "\n\n"],
  [["new", "line"], "\n"],
  [["question", "mark"], "?"],
  [["exclamation", "mark"], "!"],
  [["full", "stop"], "."],
  [["period"], "."],
  [["comma"], ","],
  [["colon"], ":"],
];
const CODE_MARKS: [string[], string][] = [
  [["open", "paren"], "("],
  [["close", "paren"], ")"],
  [["dot"], "."],
  [["slash"], "/"],
  [["underscore"], "_"],
  [["dash"], "-"],
  [["equals"], "="],
];
/** A code symbol is glued to both neighbours; a punctuation mark only to the word before. */
const GLUE = "\u0000";

function spokenMarks(tokens: string[], context: DictateAxes["context"]): string[] {
  const table = context === "code" ? [...CODE_MARKS, ...MARKS] : MARKS;
  const out: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const hit = table.find(([seq]) => seq.every((w, k) => tokens[i + k] === w));
    if (!hit) {
      out.push(tokens[i++]);
      continue;
    }
    const code = CODE_MARKS.includes(hit);
    // "dot" between words is a symbol; a mark with no word before it is dropped as noise.
    if (out.length > 0) out.push(code ? `${GLUE}${hit[1]}${GLUE}` : `${GLUE}${hit[1]}`);
    i += hit[0].length;
  }
  return out;
}

/** Sentences: text up to and including each ., ? or ! mark (or a line break). */
function split(tokens: string[]): string[] {
  const text = tokens.join(" ")
    .replace(new RegExp(` ?${GLUE}([^${GLUE}]+)${GLUE} ?`, "g"), "$1")
    .replace(new RegExp(` ?${GLUE}`, "g"), "");
  // A mark ends a sentence only before a space or the end: "main.ts" stays one word.
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    current += c;
    const endsMark = /[.?!]/.test(c) && (i + 1 === text.length || /\s/.test(text[i + 1]));
    if (endsMark || c === "\n") {
      out.push(current);
      current = "";
    }
  }
  out.push(current);
  return out.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Long form and contraction, both ways: casual contracts, formal expands. */
const CONTRACTIONS: [string, string][] = [
  ["do not", "don't"],
  ["does not", "doesn't"],
  ["cannot", "can't"],
  ["is not", "isn't"],
  ["it is", "it's"],
  ["i am", "i'm"],
  ["that is", "that's"],
  ["we are", "we're"],
  ["will not", "won't"],
];

function style(sentence: string, axes: DictateAxes): string {
  if (axes.styling === "verbatim") return sentence;
  let s = sentence;
  for (const [long, short] of CONTRACTIONS) {
    if (axes.styling === "casual") s = s.replace(new RegExp(`\\b${long}\\b`, "g"), short);
    if (axes.styling === "formal") s = s.replace(new RegExp(`\\b${short}(?!\\w)`, "g"), long);
  }
  s = s.replace(/\bi\b(?![.'])/g, "I").replace(/\bi'm\b/g, "I'm");
  if (axes.styling === "casual") return s;
  s = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.?!:,\n]$/.test(s) ? s : `${s}.`;
}
