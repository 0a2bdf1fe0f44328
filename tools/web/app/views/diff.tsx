import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type DiffFile, type DiffLine, layerFiles } from "../net/review_read.ts";
import { fileKey } from "../net/store.ts";
import { highlightLines, languageOf } from "../draw/highlight.ts";
import { CommentForm, type Side } from "./threads.tsx";
import { client, useApp } from "./use.ts";

export { layerFiles };

/** A line's identity in its file: its side and its number there, whatever row it is drawn in. */
interface LineAt {
  side: Side;
  line: number;
}

/** The side a diff line is numbered on: a removed line the old file's, any other the new's. */
function lineAt(l: DiffLine): LineAt | null {
  if (l.new_line !== null) return { side: "new", line: l.new_line };
  return l.old_line !== null ? { side: "old", line: l.old_line } : null;
}

/** An open comment form: the line it is on, and that line as it read when the form opened. */
interface Commenting extends LineAt {
  text: string;
  context: string[];
}

/**
 * One file's raw hunks drawn as a diff. Between two hunks (and above the first) the lines the
 * record does not carry are a gap; expanding it reads the file whole at `sha` with
 * `file_content` and draws the lines the gap spans. spec: file_content ("null reads the seat's
 * branch tip"): that read is one side of this diff, `readSide` says which - the working tree's
 * changes are against the tip, so there it is the OLD side, and a gap's lines are found by their
 * old numbers; a commit's tree is its own diff's new side.
 *
 * The diff is read again whenever the tree moves (spec: session > diff), so its rows move under
 * the reader: an open comment form stays on its line by the line's side and number, not its row,
 * and an opened stretch of a working-tree file is read again from the moved tree (the old read
 * is dropped with it, net/seat_attach.ts), never drawn from the tree that was.
 */
export function FileDiff(
  props: {
    file: DiffFile;
    sha: string | null;
    readSide: Side;
    expandable: boolean;
    commentable?: boolean;
  },
) {
  const s = useApp();
  const [commenting, setCommenting] = useState<Commenting | null>(null);
  const file = props.file;
  const path = file.path;
  const key = fileKey(path, props.sha);
  const content = s.files.get(key);
  // Opened once, a stretch stays open: a read the tree's movement dropped is asked again.
  const [opened, setOpened] = useState(() => content !== undefined);
  const reading = opened && content === undefined;
  const seat = s.seat!;
  useEffect(() => {
    if (reading) client().send({ kind: "file_content", session: seat.slot, path, sha: props.sha });
  }, [reading, key]);
  const lines = file.lines;
  const marked = highlightLines(lines.map((l) => l.text), languageOf(path));
  const got = content?.content;
  const read = got?.state === "read" ? got.lines : null;
  const out: JSX.Element[] = [];
  let lastNew = 0;
  let lastOld = 0;
  let formDrawn = false;
  const form = (at: Commenting, gone: boolean) => (
    <tr key={`c-${at.side}-${at.line}`}>
      <td colSpan={3}>
        <CommentForm
          path={path}
          side={at.side}
          line={at.line}
          text={at.text}
          context={at.context}
          gone={gone}
          onDone={() => setCommenting(null)}
        />
      </td>
    </tr>
  );
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
              <tr class="context expanded" data-testid="expanded" data-line={n} key={`x${n}`}>
                <td>{n + offset}</td>
                <td>{n}</td>
                <td>{` ${read[(props.readSide === "old" ? n + offset : n) - 1] ?? ""}`}</td>
              </tr>,
            );
          }
        } else {
          out.push(
            <tr class="gap" key={`g${start}`}>
              <td colSpan={3}>
                <button
                  type="button"
                  data-testid="expand"
                  disabled={reading}
                  onClick={() => setOpened(true)}
                >
                  ↕ {hidden} unchanged line{hidden === 1 ? "" : "s"}
                  {reading ? " (reading…)" : ""}
                </button>
                {got?.state === "failed" && <span class="muted">{got.why}</span>}
              </td>
            </tr>,
          );
        }
      }
      out.push(
        <tr class="hunk" key={`h${start}:${i}`}>
          <td colSpan={3}>{l.text}</td>
        </tr>,
      );
      continue;
    }
    if (l.new_line !== null) lastNew = l.new_line;
    if (l.old_line !== null) lastOld = l.old_line;
    const at = lineAt(l);
    const open = at !== null && commenting !== null && commenting.side === at.side &&
      commenting.line === at.line;
    const comment = props.commentable && at !== null
      ? () => setCommenting({ ...at, text: l.text, context: captured(lines, i) })
      : null;
    out.push(
      <tr
        class={comment ? `${l.kind} commentable` : l.kind}
        key={at ? `${at.side}${at.line}` : `r${i}`}
        // A tap anywhere on the line opens its thread (the number alone is too small a target
        // for a thumb); a drag that selects words to copy opens nothing.
        onClick={comment
          ? () => {
            if (!globalThis.getSelection?.()?.toString()) comment();
          }
          : undefined}
      >
        <td>{l.old_line ?? ""}</td>
        <td>
          {comment && at !== null
            ? (
              <button
                type="button"
                class="line-comment"
                data-testid={at.side === "new" ? `comment-${at.line}` : `comment-old-${at.line}`}
                title="Comment on this line"
                aria-label={`Comment on line ${at.line}`}
              >
                {l.new_line ?? ""}
              </button>
            )
            : l.new_line ?? ""}
        </td>
        <td>
          {l.kind === "added" ? "+" : l.kind === "removed" ? "-" : " "}
          <Line text={l.text} html={marked[i]} />
        </td>
      </tr>,
    );
    if (open && at) {
      // The line as it reads now: the anchor captures what is there when the comment is saved.
      out.push(form({ ...at, text: l.text, context: captured(lines, i) }, false));
      formDrawn = true;
    }
  }
  // The line left the diff while its form was open: the form stays, and its words with it.
  if (commenting && !formDrawn) out.push(form(commenting, true));
  // A file with no line to show says so in words: its bare hunk head (`@@ -0,0 +1,0 @@`, an
  // empty new file) is git's notation, not a reason. Binary and capped files say their own.
  const lineless = !file.binary && !file.truncated && lines.every((l) => l.kind === "hunk");
  const nothing = file.status === "added" || file.status === "untracked"
    ? "an empty file"
    : file.status === "deleted"
    ? "it was empty"
    : "no line changed";
  const notes = [
    file.status,
    file.truncated ? "cut at the read's cap" : null,
    file.binary ? "binary" : null,
    lineless ? nothing : null,
  ].filter((n) => n !== null).join(" · ");
  return (
    <div class="file" data-testid={`file-${path}`}>
      <div class="file-head">
        <b>{path}</b> <span class="muted">{notes}</span>
      </div>
      {!lineless && (
        <table class="diff">
          <tbody>{out}</tbody>
        </table>
      )}
    </div>
  );
}

/**
 * The lines a thread's anchor captures: FIRST the line itself, which is what re-finds the anchor
 * after edits (protocol/review.ts ReviewAnchor), then the two lines either side of it.
 */
function captured(lines: DiffLine[], i: number): string[] {
  const around = lines.slice(Math.max(0, i - 2), i + 3)
    .filter((x) => x.kind !== "hunk" && x !== lines[i]);
  return [lines[i].text, ...around.map((x) => x.text)];
}

/** One diff line, highlighted in its file's language when the page carries that language. */
function Line(props: { text: string; html: string | null }) {
  return props.html === null
    ? <span>{props.text}</span>
    : <span class="hljs" dangerouslySetInnerHTML={{ __html: props.html }} />;
}
