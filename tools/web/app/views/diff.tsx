import { useState } from "preact/hooks";
import { type DiffFile, layerFiles } from "../net/review_read.ts";
import { highlightLines, languageOf } from "../draw/highlight.ts";
import { CommentForm } from "./threads.tsx";
import { client, useApp } from "./use.ts";

export { layerFiles };

/**
 * One file's raw hunks drawn as a diff. Between two hunks (and above the first) the lines the
 * record does not carry are a gap; expanding it reads the file whole at `sha` with
 * `file_content` and draws the lines the gap spans. spec: file_content.
 */
export function FileDiff(
  props: { file: DiffFile; sha: string | null; expandable: boolean; commentable?: boolean },
) {
  const s = useApp();
  const [commenting, setCommenting] = useState<number | null>(null);
  const file = props.file;
  const path = file.path;
  const language = languageOf(path);
  const lines = file.lines;
  const marked = highlightLines(lines.map((l) => l.text), language);
  const content = s.files.get(`${path}@${props.sha ?? ""}`);
  const body = content?.content;
  const got = typeof body === "object" && body !== null && !Array.isArray(body) ? body : null;
  const read = got?.state === "read" && Array.isArray(got.lines)
    ? got.lines.map((l) => typeof l === "string" ? l : "")
    : null;
  const seat = s.seat!;
  const expand = () =>
    client().send({
      kind: "file_content",
      session: seat.slot,
      path,
      sha: props.sha,
    });
  const out = [];
  let lastNew = 0;
  let lastOld = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.kind === "hunk") {
      const start = Number(/\+(\d+)/.exec(l.text)?.[1] ?? 0);
      const hidden = start - 1 - lastNew;
      if (hidden > 0 && props.expandable) {
        if (read) {
          // Between hunks the old side is offset from the new by what the hunks above changed.
          const offset = lastOld - lastNew;
          for (let n = lastNew + 1; n < start; n++) {
            out.push(
              <tr class="context expanded" data-testid="expanded" key={`x${n}`}>
                <td>{n + offset}</td>
                <td>{n}</td>
                <td>{` ${read[n - 1] ?? ""}`}</td>
              </tr>,
            );
          }
        } else {
          out.push(
            <tr class="gap" key={`g${i}`}>
              <td colSpan={3}>
                <button type="button" data-testid="expand" onClick={expand}>
                  ↕ {hidden} unchanged line{hidden === 1 ? "" : "s"}
                </button>
                {got?.state === "failed" && <span class="muted">{String(got.why)}</span>}
              </td>
            </tr>,
          );
        }
      }
      out.push(
        <tr class="hunk" key={i}>
          <td colSpan={3}>{l.text}</td>
        </tr>,
      );
      continue;
    }
    if (l.new_line !== null) lastNew = l.new_line;
    if (l.old_line !== null) lastOld = l.old_line;
    const line = l.new_line;
    out.push(
      <tr class={l.kind} key={i}>
        <td>{l.old_line ?? ""}</td>
        <td>
          {props.commentable && line !== null
            ? (
              <button
                type="button"
                class="line-comment"
                data-testid={`comment-${line}`}
                title="Comment on this line"
                onClick={() => setCommenting(i)}
              >
                {line}
              </button>
            )
            : line ?? ""}
        </td>
        <td>
          {l.kind === "added" ? "+" : l.kind === "removed" ? "-" : " "}
          <Line text={l.text} html={marked[i]} />
        </td>
      </tr>,
    );
    if (commenting === i && line !== null) {
      const around = lines.slice(Math.max(0, i - 2), i + 3).filter((x) => x.kind !== "hunk");
      out.push(
        <tr key={`c${i}`}>
          <td colSpan={3}>
            <CommentForm
              path={path}
              line={line}
              text={l.text}
              context={around.map((x) => x.text)}
              onDone={() => setCommenting(null)}
            />
          </td>
        </tr>,
      );
    }
  }
  return (
    <div class="file" data-testid={`file-${path}`}>
      <div class="file-head">
        <b>{path}</b> <span class="muted">{file.status}</span>
        {file.truncated && <span class="muted">· cut at the read's cap</span>}
        {file.binary && <span class="muted">· binary</span>}
      </div>
      <table class="diff">
        <tbody>{out}</tbody>
      </table>
    </div>
  );
}

/** One diff line, highlighted in its file's language when the page carries that language. */
function Line(props: { text: string; html: string | null }) {
  return props.html === null
    ? <span>{props.text}</span>
    : <span class="hljs" dangerouslySetInnerHTML={{ __html: props.html }} />;
}
