import { codeSpans } from "./code_spans.ts";

/** One of forge's sentences as the page draws it: its `code` spans as code (code_spans.ts). */
export function Said(props: { text: string }) {
  return (
    <>
      {codeSpans(props.text).map((p, i) => p.code ? <code key={i}>{p.text}</code> : p.text)}
    </>
  );
}
