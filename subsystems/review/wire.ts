/**
 * The review subsystem's wire shapes, snake_case exactly as the spec words them
 * (spec: session table rows `work`, `git`, `pr, closes`, `diff`, `file_index`, `reviews`).
 * Object shapes are type aliases, not interfaces: an alias is checked against `Wire` field by field,
 * where an interface (no index signature) would need an unchecked cast to cross.
 * Enums follow the serde convention the rest of the wire uses: a unit variant is its name as
 * a string, a variant with data is an object keyed by the variant's name
 * (`{"behind": {"behind": 3}}`, `{"populated": {...}}`, `{"other": "docx"}`).
 */

/** Whether git runs here (spec: `work` row). `gone`: the directory itself no longer exists. */
export type Gate = "in_repo" | "not_a_repository" | "gone" | "scanner_failed";

/** The `work` row: branch (null when detached or not a repo), how many files changed, the gate. */
export type WorkState = {
  branch: string | null;
  changed: number | null;
  gate: Gate;
};

/** One file's classification, shared by the uncommitted layer and every stats block. */
export type FileStatus =
  | "modified"
  | "added"
  | "deleted"
  | "renamed"
  | "copied"
  | "typechange"
  | "unmerged"
  | "untracked";

/** One file in a stats block: git's line counts (binary files count 0/0, as numstat's `-`). */
export type FileStat = {
  path: string;
  added: number;
  removed: number;
  status: FileStatus;
};

/** A stats block: full totals, and the busiest files (added + removed, descending) up to 7. */
export type StatsBlock = {
  files: FileStat[];
  total_files: number;
  total_added: number;
  total_removed: number;
};

/** One commit of the chain ahead: short sha, subject, its own stats, committed (unix secs). */
export type AheadCommit = {
  sha: string;
  subject: string;
  stats: StatsBlock;
  committed: number;
};

/** The branch's commits ahead of its base: the full count, the chain (capped), the range stats. */
export type Ahead = {
  commit_count: number;
  commits: AheadCommit[];
  stats: StatsBlock;
};

/**
 * The base check's state (spec: `diff` row). This server answers local, current or unverified;
 * `behind` is a value a client still draws, so the type keeps it.
 */
export type BaseState = "local" | "current" | "unverified" | { behind: { behind: number } };

/** The `git` row. */
export type GitWorkView = {
  default_branch: string | null;
  worktree: StatsBlock | null;
  ahead: Ahead | null;
  base: BaseState | null;
  base_error: string | null;
};

/** One carried diff line. `hunk` is the `@@` header itself, numbered with the hunk's starts. */
export type DiffLine = {
  kind: "hunk" | "context" | "added" | "removed";
  text: string;
  old_line: number | null;
  new_line: number | null;
};

/** One populated file of a diff layer. */
export type DiffFile = {
  path: string;
  old_path: string | null;
  status: FileStatus;
  binary: boolean;
  submodule: boolean;
  /** A per-file cap (400 lines, 32 KiB) or the read's 512 KiB cap cut this file's lines. */
  truncated: boolean;
  lines: DiffLine[];
};

/**
 * A populated layer. `total_files` counts every changed file; `files_capped` says the read's
 * 100-file cap left some out; `bytes_capped` says the read's 512 KiB line-text cap emptied or
 * cut at least one file here.
 */
export type DiffLayer = {
  files: DiffFile[];
  total_files: number;
  files_capped: boolean;
  bytes_capped: boolean;
};

/** A layer's state: `"clean"`, `{"populated": DiffLayer}` or `"scan_failed"`. */
export type LayerState = "clean" | { populated: DiffLayer } | "scan_failed";

/** The `diff` row. `branch_ahead` and `base` are null when there is no branch layer. */
export type DiffContent = {
  worktree: LayerState;
  branch_ahead: LayerState | null;
  base: BaseState | null;
  base_error: string | null;
};

/** The `pr` row. */
export type PrInfo = {
  number: number;
  url: string;
  is_draft: boolean;
};

/** One issue the PR closes (`closes` row). */
export type IssueRef = {
  number: number;
  url: string;
};

/**
 * A read that may have failed, adjacently tagged as the original's ReadWire (spec: What a subject
 * carries > session, its `reviews` row).
 */
export type Read<T> = { outcome: "read"; value: T } | { outcome: "failed"; value: string };
