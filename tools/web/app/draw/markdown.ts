import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import { highlight, languageOf } from "./highlight.ts";

/**
 * A model's markdown as HTML that is safe to set: markdown-it with raw HTML OFF (a tag in the
 * text is escaped and drawn as the text it is) and its link check on (a `javascript:` link is
 * not a link), code fences highlighted, and the result passed through DOMPurify as a second
 * line, so nothing a model writes reaches the page as markup or script. An image is drawn as a
 * link to it, never fetched: a model's `![x](https://host/?secret)` would otherwise make the
 * page request any address it names the moment the turn is drawn.
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

// An image is a link to what it names, labelled with its alt text: nothing is fetched.
md.renderer.rules.image = (tokens, i, options, env, self) => {
  const token = tokens[i];
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const src = String(token.attrGet("src") ?? "");
  const href = md.utils.escapeHtml(src);
  const label = md.utils.escapeHtml(`image: ${alt || src}`);
  return md.validateLink(src)
    ? `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`
    : label;
};

const SAFE = {
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/(?!\/))/i,
  ADD_ATTR: ["target"],
  // Nothing that fetches or plays what it names, whatever reached this far.
  FORBID_TAGS: [
    "style",
    "form",
    "input",
    "iframe",
    "object",
    "embed",
    "img",
    "picture",
    "source",
    "video",
    "audio",
    "svg",
    "math",
    "link",
  ],
  FORBID_ATTR: ["srcset", "background", "poster", "style"],
};

/** Renders `text` to sanitised HTML. */
export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.render(text).trim(), SAFE);
}
