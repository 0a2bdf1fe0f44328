/**
 * The review subsystem's wire shapes (spec: session table rows `work`, `git`, `pr, closes`,
 * `diff`, `file_index`, `reviews`). The rows' types are protocol/'s own (protocol/review_record.ts,
 * protocol/home.ts), inferred from the schemas a client reads them with, so what this subsystem
 * builds and what a page reads cannot drift apart.
 */

export type {
  Ahead,
  AheadCommit,
  BaseState,
  DiffContent,
  DiffFile,
  DiffLayer,
  DiffLine,
  FileStat,
  FileStatus,
  GitWorkView,
  IssueRef,
  LayerState,
  PrInfo,
  StatsBlock,
  WorkState,
} from "../../protocol/mod.ts";

/**
 * A read that may have failed, adjacently tagged as the original's ReadWire (spec: What a subject
 * carries > session, its `reviews` row).
 */
export type Read<T> = { outcome: "read"; value: T } | { outcome: "failed"; value: string };
