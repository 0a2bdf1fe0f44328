import { useMemo } from "preact/hooks";
import { highlight, languageOf } from "./highlight.ts";
import { renderMarkdown } from "./markdown.ts";

/**
 * A block of code: highlighted when its language (a name, a fence word or a file path) is one
 * this page carries, else drawn as plain text. highlight.js escapes every character it emits, so
 * the only markup set here is its own spans.
 */
export function Code(
  props: { text: string; language: string | null; class?: string; testid?: string },
) {
  const html = useMemo(
    () => highlight(props.text, props.language ? languageOf(props.language) : null),
    [props.text, props.language],
  );
  const cls = `code hljs ${props.class ?? ""}`;
  if (html === null) {
    return <pre class={cls} data-testid={props.testid}>{props.text}</pre>;
  }
  return <pre class={cls} data-testid={props.testid} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A model's markdown, rendered and sanitised (draw/markdown.ts). */
export function Markdown(props: { text: string; class?: string; testid?: string }) {
  const html = useMemo(() => renderMarkdown(props.text), [props.text]);
  return (
    <div
      class={`md ${props.class ?? ""}`}
      data-testid={props.testid}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
