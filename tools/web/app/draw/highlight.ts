import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

// highlight.js's core with the languages a seat's code is mostly in: the whole library is ten
// times the size, and a language not here is drawn plain rather than guessed at.
hljs.registerLanguage("bash", bash);
hljs.registerLanguage("css", css);
hljs.registerLanguage("diff", diff);
hljs.registerLanguage("go", go);
hljs.registerLanguage("json", json);
hljs.registerLanguage("python", python);
hljs.registerLanguage("rust", rust);
hljs.registerLanguage("typescript", typescript);
hljs.registerLanguage("xml", xml);
hljs.registerLanguage("yaml", yaml);

const BY_EXTENSION: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  js: "typescript",
  jsx: "typescript",
  mjs: "typescript",
  json: "json",
  sh: "bash",
  bash: "bash",
  py: "python",
  rs: "rust",
  go: "go",
  css: "css",
  html: "xml",
  xml: "xml",
  svg: "xml",
  yml: "yaml",
  yaml: "yaml",
  toml: "yaml",
  diff: "diff",
  patch: "diff",
};

/** The language a fence or a file name names, when this page highlights it. */
export function languageOf(nameOrFence: string): string | null {
  const word = nameOrFence.trim().toLowerCase();
  if (hljs.getLanguage(word)) return word;
  const ext = /\.([a-z0-9]+)$/.exec(word)?.[1] ?? word;
  return BY_EXTENSION[ext] ?? null;
}

/**
 * `code` as highlighted HTML (every character escaped by highlight.js), or null when the
 * language is not one this page carries: the caller then draws the text as text.
 */
export function highlight(code: string, language: string | null): string | null {
  if (!language || !hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/** How many files' highlighted lines are kept: a review page draws a few dozen at most. */
const KEEP_FILES = 64;
const byContent = new Map<string, (string | null)[]>();

/**
 * A diff's lines highlighted, one entry per line (null: draw that line as text). Kept by the
 * lines' own content, not by the record that carried them: the page re-reads the record on every
 * store change, so a file whose text is the same is not highlighted again, and a file whose text
 * moved is - its new lines are drawn highlighted as they now read.
 */
export function highlightLines(texts: string[], language: string | null): (string | null)[] {
  const id = `${language ?? ""}\u0000${texts.join("\n")}`;
  const held = byContent.get(id);
  if (held) {
    byContent.delete(id);
    byContent.set(id, held);
    return held;
  }
  const fresh = texts.map((t) => highlight(t, language));
  byContent.set(id, fresh);
  if (byContent.size > KEEP_FILES) byContent.delete(byContent.keys().next().value!);
  return fresh;
}
