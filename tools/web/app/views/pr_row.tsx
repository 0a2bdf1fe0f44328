import { Fragment } from "preact";
import type { IssueRef, PrInfo } from "../../../../protocol/mod.ts";

/**
 * The review page's PR row: the open pull request the seat's branch is on and, under it, the
 * issues it closes (spec: What a subject carries > session, `pr, closes` - "the PR #N -> closes
 * #M line a view draws under its PR row"). Null and an empty list is no PR, an unpushed branch,
 * or a forge where `gh` cannot tell; the row says that rather than nothing.
 */
export function prWords(pr: PrInfo | null, closes: readonly IssueRef[]): string {
  if (pr === null) return "No open pull request known for this branch";
  const head = `PR #${pr.number}${pr.is_draft ? " (draft)" : ""}`;
  return closes.length === 0
    ? head
    : `${head} -> closes ${closes.map((i) => `#${i.number}`).join(", ")}`;
}

/** A link where the row has a URL (an issue's may be empty), its words alone where not. */
function Linked(props: { url: string; words: string; testid: string }) {
  return props.url
    ? (
      <a href={props.url} target="_blank" rel="noopener noreferrer" data-testid={props.testid}>
        {props.words}
      </a>
    )
    : <span data-testid={props.testid}>{props.words}</span>;
}

export function PrRow(props: { pr: PrInfo | null; closes: readonly IssueRef[] }) {
  const { pr, closes } = props;
  return (
    <div class="pr-row" data-testid="pr-row" aria-label={prWords(pr, closes)}>
      {pr === null ? <span class="muted">{prWords(null, [])}</span> : (
        <>
          <Linked url={pr.url} words={`PR #${pr.number}`} testid="pr-link" />
          {pr.is_draft && <span class="chip" data-testid="pr-draft">draft</span>}
          {closes.length > 0 && (
            <span class="pr-closes" data-testid="pr-closes">
              {"-> closes "}
              {closes.map((i, n) => (
                <Fragment key={i.number}>
                  {n > 0 && ", "}
                  <Linked url={i.url} words={`#${i.number}`} testid="pr-issue" />
                </Fragment>
              ))}
            </span>
          )}
        </>
      )}
    </div>
  );
}
