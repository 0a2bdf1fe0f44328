import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import { highlight, languageOf } from "./highlight.ts";

/**
 * A model's markdown as HTML that is safe to set: markdown-it with raw HTML OFF (a tag in the
 * text is escaped and drawn as the text it is) and its link check on (a `javascript:` link is
 * not a link), code fences highlighted, and the result passed through DOMPurify as a second
 * line, so nothing a model writes reaches the page as markup or script.
 */
const md = new MarkdownIt({
  html: false,
  linkify: false,
  typographer: false,
  highlight: (code, fence) => {
    const html = highlight(code, languageOf(fence));
    return html === null ? "" : `<pre class="hljs"><code>${html}</code></pre>`;
  },
});

// Links open beside the page, never in it, and tell the target nothing.
const link = md.renderer.rules.link_open ??
  ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet("target", "_blank");
  tokens[i].attrSet("rel", "noopener noreferrer");
  return link(tokens, i, options, env, self);
};

const SAFE = {
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/(?!\/))/i,
  ADD_ATTR: ["target"],
  FORBID_TAGS: ["style", "form", "input", "iframe", "object", "embed"],
};

/** Renders `text` to sanitised HTML. */
export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text).trim(), SAFE);
}
