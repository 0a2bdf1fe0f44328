import { z } from "zod";

// spec: What a subject carries > session, its `git`, `pr`, `closes` and `diff` rows: the
// working tree as the review subsystem reads it. The server builds these values from the
// inferred types (subsystems/review/wire.ts) and a page reads the record against them, so the two
// cannot drift apart. Enums follow serde: a unit variant is its name, a variant with data an
// object keyed by its name (`{"behind": {"behind": 3}}`, `{"populated": {...}}`).

/** One file's classification, shared by the uncommitted layer and every stats block. */
export const FileStatus = z.enum([
  "modified",
  "added",
  "deleted",
  "renamed",
  "copied",
  "typechange",
  "unmerged",
  "untracked",
]);
export type FileStatus = z.infer<typeof FileStatus>;

/** One file in a stats block: git's line counts (binary files count 0/0, as numstat's `-`). */
export const FileStat = z.object({
  path: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
  status: FileStatus,
}).strict();
export type FileStat = z.infer<typeof FileStat>;

/** A stats block: full totals, and the busiest files (added + removed, descending) up to 7. */
export const StatsBlock = z.object({
  files: z.array(FileStat),
  total_files: z.number().int(),
  total_added: z.number().int(),
  total_removed: z.number().int(),
}).strict();
export type StatsBlock = z.infer<typeof StatsBlock>;

/** One commit of the chain ahead: short sha, subject, its own stats, committed (unix secs). */
export const AheadCommit = z.object({
  sha: z.string(),
  subject: z.string(),
  stats: StatsBlock,
  committed: z.number(),
}).strict();
export type AheadCommit = z.infer<typeof AheadCommit>;

/** The branch's commits ahead of its base: the full count, the chain (capped), the range stats. */
export const Ahead = z.object({
  commit_count: z.number().int(),
  commits: z.array(AheadCommit),
  stats: StatsBlock,
}).strict();
export type Ahead = z.infer<typeof Ahead>;

/**
 * The base check's state (spec: `diff` row). forge answers local, current or unverified;
 * `behind` is a value a client still draws, so the type keeps it.
 */
export const BaseState = z.union([
  z.enum(["local", "current", "unverified"]),
  z.object({ behind: z.object({ behind: z.number().int() }).strict() }).strict(),
]);
export type BaseState = z.infer<typeof BaseState>;

/** The `git` row. */
export const GitWorkView = z.object({
  default_branch: z.string().nullable(),
  worktree: StatsBlock.nullable(),
  ahead: Ahead.nullable(),
  base: BaseState.nullable(),
  base_error: z.string().nullable(),
}).strict();
export type GitWorkView = z.infer<typeof GitWorkView>;

/** One carried diff line. `hunk` is the `@@` header itself, numbered with the hunk's starts. */
export const DiffLine = z.object({
  kind: z.enum(["hunk", "context", "added", "removed"]),
  text: z.string(),
  old_line: z.number().int().nullable(),
  new_line: z.number().int().nullable(),
}).strict();
export type DiffLine = z.infer<typeof DiffLine>;

/** One populated file of a diff layer. */
export const DiffFile = z.object({
  path: z.string(),
  old_path: z.string().nullable(),
  status: FileStatus,
  binary: z.boolean(),
  submodule: z.boolean(),
  /** A per-file cap (400 lines, 32 KiB) or the read's 512 KiB cap cut this file's lines. */
  truncated: z.boolean(),
  lines: z.array(DiffLine),
}).strict();
export type DiffFile = z.infer<typeof DiffFile>;

/**
 * A populated layer. `total_files` counts every changed file; `files_capped` says the read's
 * 100-file cap left some out; `bytes_capped` says the read's 512 KiB line-text cap emptied or
 * cut at least one file here.
 */
export const DiffLayer = z.object({
  files: z.array(DiffFile),
  total_files: z.number().int(),
  files_capped: z.boolean(),
  bytes_capped: z.boolean(),
}).strict();
export type DiffLayer = z.infer<typeof DiffLayer>;

/** A layer's state: `"clean"`, `{"populated": DiffLayer}` or `"scan_failed"`. */
export const LayerState = z.union([
  z.enum(["clean", "scan_failed"]),
  z.object({ populated: DiffLayer }).strict(),
]);
export type LayerState = z.infer<typeof LayerState>;

/** The `diff` row. `branch_ahead` and `base` are null when there is no branch layer. */
export const DiffContent = z.object({
  worktree: LayerState,
  branch_ahead: LayerState.nullable(),
  base: BaseState.nullable(),
  base_error: z.string().nullable(),
}).strict();
export type DiffContent = z.infer<typeof DiffContent>;

/** The `pr` row. */
export const PrInfo = z.object({
  number: z.number().int(),
  url: z.string(),
  is_draft: z.boolean(),
}).strict();
export type PrInfo = z.infer<typeof PrInfo>;

/** One issue the PR closes (`closes` row). */
export const IssueRef = z.object({ number: z.number().int(), url: z.string() }).strict();
export type IssueRef = z.infer<typeof IssueRef>;

/**
 * A `file_content` answer's `content`: the file's lines at the asked revision, or why it could
 * not be read in forge's words (there is no error arm). spec: file_content.
 */
export const FileContent = z.union([
  z.object({ state: z.literal("read"), lines: z.array(z.string()), truncated: z.boolean() })
    .strict(),
  z.object({ state: z.literal("failed"), why: z.string() }).strict(),
]);
export type FileContent = z.infer<typeof FileContent>;

/**
 * The session's `file_index` and `file_index_changed`'s `index`: every file under the seat's scan
 * cwd as a tree keyed by name, a directory's value its own `{entries}` and a file's null
 * (`{"entries": {"src": {"entries": {"a.ts": null}}}}`). spec: What a subject carries > session >
 * file_index; the catalogue's FileIndex (`{entries: {...}}`).
 */
export const FileIndex = z.object({
  get entries(): z.ZodRecord<z.ZodString, z.ZodNullable<typeof FileIndex>> {
    return z.record(z.string(), FileIndex.nullable());
  },
}).strict();
export type FileIndex = z.infer<typeof FileIndex>;
