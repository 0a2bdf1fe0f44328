import { z } from "zod";
import { ReviewThread, type Wire } from "../../../../protocol/mod.ts";

/**
 * The review page's parts of the seat record, narrowed: a diff layer's files and their raw
 * lines, the branch's commits, and the threads store's read. The session snapshot carries these
 * as JSON (their own modules pin the inside), so the page checks the fields it draws here.
 * spec: session > diff, git, reviews.
 */
export const DiffLine = z.object({
  kind: z.enum(["hunk", "context", "added", "removed"]),
  text: z.string(),
  old_line: z.number().nullable(),
  new_line: z.number().nullable(),
}).loose();
export type DiffLine = z.infer<typeof DiffLine>;

export const DiffFile = z.object({
  path: z.string(),
  status: z.string().catch(""),
  truncated: z.boolean().catch(false),
  binary: z.boolean().catch(false),
  lines: z.array(DiffLine).catch([]),
}).loose();
export type DiffFile = z.infer<typeof DiffFile>;

const Populated = z.object({ populated: z.object({ files: z.array(DiffFile) }).loose() });

/** The files of a layer state (`"clean"`, `{"populated": {...}}`, `"scan_failed"`), or words. */
export function layerFiles(layer: Wire | undefined): DiffFile[] | string {
  if (layer === "clean") return "clean";
  if (layer === "scan_failed") return "the scan failed";
  const p = Populated.safeParse(layer);
  return p.success ? p.data.populated.files : "nothing to state";
}

const Commit = z.object({ sha: z.string(), subject: z.string().catch("") }).loose();
const Git = z.object({
  default_branch: z.string().nullish(),
  ahead: z.object({ commits: z.array(Commit) }).loose().nullish(),
}).loose();
const Diff = z.object({
  worktree: z.json().optional(),
  branch_ahead: z.json().nullable().optional(),
  base_error: z.string().nullish(),
}).loose();

/** The record's git and diff rows as the review page reads them. */
export function reviewRead(git: Wire | undefined, diff: Wire | undefined) {
  const g = Git.safeParse(git ?? {});
  const d = Diff.safeParse(diff ?? {});
  return {
    defaultBranch: g.success ? g.data.default_branch ?? null : null,
    commits: g.success ? g.data.ahead?.commits ?? [] : [],
    worktree: d.success ? d.data.worktree : undefined,
    branchAhead: d.success ? d.data.branch_ahead : undefined,
    baseError: d.success ? d.data.base_error ?? null : null,
  };
}

const ThreadsRead = z.object({
  reviews: z.object({
    threads: z.union([
      z.object({ outcome: z.literal("read"), value: z.array(ReviewThread) }),
      z.object({ outcome: z.string() }).loose(),
    ]),
  }).loose(),
});

/** The threads store's read: the threads, or why they could not be read (in the store's words). */
export function threadsRead(reviews: Wire | undefined) {
  const r = ThreadsRead.safeParse({ reviews });
  if (!r.success) return { threads: [], failed: null };
  const t = r.data.reviews.threads;
  return "value" in t && t.outcome === "read"
    ? { threads: z.array(ReviewThread).parse(t.value), failed: null }
    : { threads: [], failed: JSON.stringify(t) };
}

/** submit_review's reply: the review set, or the refusal in words. */
export const SubmitReply = z.object({ number: z.number() }).loose();
