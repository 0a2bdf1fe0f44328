import { useState } from "preact/hooks";
import { fromBase64 } from "../net/base64.ts";
import { layerFiles, reviewRead } from "../net/review_read.ts";
import { FileDiff } from "./diff.tsx";
import { PrRow } from "./pr_row.tsx";
import { Threads } from "./threads.tsx";
import { client, useApp } from "./use.ts";

/**
 * The review tab: the changed files with their raw hunks, a commit's own diff on demand
 * (commit_diff), the review threads the record carries, and a document read (document_read),
 * under the branch's pull request and the issues it closes. spec: session > diff, git, pr,
 * closes, reviews; commit_diff; file_content; document_read.
 */
export function ReviewPage() {
  const s = useApp();
  const seat = s.seat!;
  const read = reviewRead(seat.record?.git, seat.record?.diff);
  const commits = read.commits;
  const [commit, setCommit] = useState<string | null>(null);
  const [docPath, setDocPath] = useState("");
  const worktree = layerFiles(read.worktree);
  const branch = read.branchAhead === null ? null : layerFiles(read.branchAhead);
  const shown = commit ? s.commits.get(commit) : null;
  const doc = s.document;
  return (
    <div class="review" data-testid="review">
      <PrRow pr={seat.record?.pr ?? null} closes={seat.record?.closes ?? []} />
      <h2>Uncommitted changes</h2>
      {typeof worktree === "string"
        ? <p class="muted">{worktree}</p>
        : worktree.map((f) => (
          <FileDiff
            file={f}
            sha={null}
            readSide="old"
            expandable
            commentable
            key={f.path}
          />
        ))}
      {branch !== null && (
        <>
          <h2>Ahead of {read.defaultBranch ?? "the base"}</h2>
          {typeof branch === "string" ? <p class="muted">{branch}</p> : branch.map((f) => (
            <FileDiff
              file={f}
              sha={null}
              readSide="new"
              expandable={false}
              key={f.path}
            />
          ))}
          {read.baseError ? <p class="muted">{read.baseError}</p> : null}
        </>
      )}
      {commits.length > 0 && (
        <>
          <h2>Commits</h2>
          <ul class="commits">
            {commits.map((c) => (
              <li key={c.sha}>
                <button
                  type="button"
                  data-testid={`commit-${c.sha}`}
                  onClick={() => {
                    setCommit(c.sha);
                    client().send({
                      kind: "commit_diff",
                      session: seat.slot,
                      sha: c.sha,
                    });
                  }}
                >
                  {c.sha}
                </button>{" "}
                {c.subject}
              </li>
            ))}
          </ul>
          <div data-testid="commit-diff">
            {shown && (shown.ok === false
              ? <p class="notice">{shown.why ?? "the commit could not be read"}</p>
              : (() => {
                const files = layerFiles(shown.diff);
                return typeof files === "string"
                  ? <p class="muted">{files}</p>
                  : files.map((f) => (
                    <FileDiff
                      file={f}
                      sha={shown.commit ?? shown.sha}
                      readSide="new"
                      expandable
                      key={f.path}
                    />
                  ));
              })())}
          </div>
        </>
      )}
      <h2>Review threads</h2>
      <Threads />
      <h2>Read a document</h2>
      <form
        class="doc-read"
        onSubmit={(e) => {
          e.preventDefault();
          client().send({
            kind: "document_read",
            session: seat.slot,
            path: docPath,
            reviewable: false,
          });
        }}
      >
        <input
          data-testid="doc-path"
          placeholder="path in the seat's tree, e.g. README.md"
          // Room for the whole placeholder: the default 20 characters cut it off.
          size={40}
          value={docPath}
          onInput={(e) => setDocPath((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Read</button>
      </form>
      {doc && (
        <article class="document" data-testid="document">
          <div class="muted">{doc.path}</div>
          <pre>{new TextDecoder().decode(fromBase64(doc.bytes))}</pre>
        </article>
      )}
    </div>
  );
}
