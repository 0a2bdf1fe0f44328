import { useState } from "preact/hooks";
import type { Wire } from "../../../../protocol/mod.ts";
import { newThread, type Thread, withReply } from "../model/threads.ts";
import { lostWords } from "../net/replies.ts";
import { submitted as reviewFiled, threadsRead } from "../net/review_read.ts";
import { client, useApp } from "./use.ts";
import { Said } from "../draw/said.tsx";

type Obj = Record<string, Wire>;

/** Runs a review write; a reply that will not come is said, and the typed words stay. */
async function written(
  write: () => Promise<Wire>,
  failed: (why: string | null) => void,
): Promise<Wire | undefined> {
  failed(null);
  try {
    return await write();
  } catch (err) {
    failed(lostWords(err));
    return undefined;
  }
}

function Failed(props: { why: string | null }) {
  return props.why
    ? (
      <p class="error" data-testid="write-failed">
        <Said text={props.why} />
      </p>
    )
    : null;
}

/** Where the review writes go: the seat's project and the branch its record names. */
export function reviewScope(): { project: string; branch: string } {
  const seat = client().state.seat!;
  return { project: seat.slot.project, branch: seat.record?.work?.branch ?? "HEAD" };
}

/** The side of a diff a line is numbered on. */
export type Side = "old" | "new";

/**
 * A comment on one line (of the new side, or a removed line's old side): writes a new thread
 * with `upsert_review_thread`. `gone` says the line left the diff while the form was open; the
 * words typed stay. spec: command > reply_to ("the three review writes").
 */
export function CommentForm(
  props: {
    path: string;
    side: Side;
    line: number;
    text: string;
    context: string[];
    gone: boolean;
    onDone: () => void;
  },
) {
  const [words, setWords] = useState("");
  const [why, setWhy] = useState<string | null>(null);
  const save = async () => {
    const scope = reviewScope();
    const thread = await newThread(
      {
        path: props.path,
        side: props.side,
        line: props.line,
        text: props.text,
        context: props.context,
        baseRef: scope.branch,
      },
      words.trim(),
    );
    const ok = await written(
      () => client().reviewWrite("upsert_review_thread", { ...scope, thread }),
      setWhy,
    );
    if (ok === true) props.onDone();
  };
  return (
    <div class="comment-form" data-testid="comment-form">
      <div class="muted">
        Comment on {props.path}:{props.side === "old" ? "old " : ""}
        {props.line}
        {props.gone && " (no longer in the diff: it anchors where it was)"}
      </div>
      <textarea value={words} onInput={(e) => setWords((e.target as HTMLTextAreaElement).value)} />
      <button type="button" data-testid="comment-save" disabled={!words.trim()} onClick={save}>
        Comment
      </button>
      <button type="button" onClick={props.onDone}>Cancel</button>
      <Failed why={why} />
    </div>
  );
}

/** The threads the record carries, each with a reply box, a resolve and a remove, and the review
 * submit. */
export function Threads() {
  const s = useApp();
  const seat = s.seat!;
  // Each store is read separately (spec: session > reviews), as {outcome, value}.
  const { threads, failed } = threadsRead(seat.record?.reviews);
  const [summary, setSummary] = useState("");
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  if (failed) return <p class="notice">The review threads could not be read: {failed}</p>;
  const open = threads.filter((t) => t.status === "open");
  const submit = async () => {
    const body = await written(() =>
      client().reviewWrite("submit_review", {
        ...reviewScope(),
        summary: summary.trim() || null,
        thread_ids: open.map((t) => t.id),
        origin: seat.slot,
      }), setWhy);
    if (body === undefined) return;
    const set = reviewFiled(body);
    setSubmitted(
      set === null
        ? "Nothing to submit."
        : typeof set === "string"
        ? set
        : `Review ${set.number} submitted.`,
    );
  };
  return (
    <div class="threads" data-testid="threads">
      {threads.length === 0 && <p class="muted">No threads on this branch.</p>}
      {threads.map((t) => <ThreadView thread={t} key={t.id} />)}
      <div class="submit-review">
        <input
          placeholder="Review summary"
          value={summary}
          onInput={(e) => setSummary((e.target as HTMLInputElement).value)}
        />
        <button type="button" data-testid="submit-review" onClick={submit}>
          Submit review ({open.length} open)
        </button>
        {submitted && <span data-testid="submitted">{submitted}</span>}
        <Failed why={why} />
      </div>
    </div>
  );
}

/**
 * One thread. Its remove carries no reply (spec: command > reply_to names three review writes,
 * not it): a refusal is an error frame the notices draw, and the thread leaves when the branch's
 * viewers hear review_threads_changed.
 */
function ThreadView(props: { thread: Thread }) {
  const t = props.thread;
  const [reply, setReply] = useState("");
  const [why, setWhy] = useState<string | null>(null);
  return (
    <div class={`thread ${t.status}`} data-testid="thread">
      <div class="thread-head">
        <b>{t.anchor.path}:{t.anchor.line}</b>{" "}
        <span class="muted" data-testid="thread-status">{t.status}</span>
      </div>
      {t.comments.map((c, i) => (
        <div class="comment" key={i}>
          <span class="muted">{typeof c.author === "string" ? c.author : "agent"}:</span> {c.text}
        </div>
      ))}
      <div class="thread-actions">
        <input
          placeholder="Reply"
          value={reply}
          onInput={(e) => setReply((e.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          data-testid="reply"
          disabled={!reply.trim()}
          onClick={async () => {
            const done = await written(() =>
              client().reviewWrite("upsert_review_thread", {
                ...reviewScope(),
                thread: withReply(t, reply.trim()),
              }), setWhy);
            if (done !== undefined) setReply("");
          }}
        >
          Reply
        </button>
        {t.status !== "resolved" && (
          <button
            type="button"
            data-testid="resolve"
            onClick={async () => {
              await written(() =>
                client().reviewWrite("set_review_thread_status", {
                  ...reviewScope(),
                  thread_id: t.id,
                  status: "resolved",
                }), setWhy);
            }}
          >
            Resolve
          </button>
        )}
        <button
          type="button"
          data-testid="remove-thread"
          onClick={() =>
            client().command("remove_review_thread", { ...reviewScope(), thread_id: t.id })}
        >
          Remove
        </button>
      </div>
      <Failed why={why} />
    </div>
  );
}
