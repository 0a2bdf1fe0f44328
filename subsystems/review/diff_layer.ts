/**
 * One diff layer as the scan reads it (spec: session table, `git` and `diff` rows): git's
 * `diff --raw -z -p` against a commit, fed to a {@link PatchStream} as git writes it, so the
 * layer's stats (and for a record read its files) are ready with git's last byte; a patch over
 * the read cap is counted by git's numstat instead.
 */
import { budgetCopy, type DiffBudget, type ParsedAhead } from "./diff_parse.ts";
import { git } from "./git.ts";
import { parseRawNumstat, type RawStat, splitHeader } from "./parse.ts";
import { PatchStream } from "./patch_stream.ts";

/**
 * The diff every layer runs: raw records for status and paths, then the patch, whose lines the
 * scan counts itself (see {@link PatchStream}); `numstat` asks git for the counts instead.
 */
export function diffArgs(against: string, mode: "patch" | "numstat"): string[] {
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--raw", "-z"];
  return [...args, mode === "patch" ? "-p" : "--numstat", against];
}

/** Patch output is read up to this; a larger one is counted by git's numstat instead. */
export const PATCH_READ_CAP = 256 * 1024 * 1024;

/** One layer read: git's exit code, its stats, its patch and (for a record read) its files. */
export interface Layer {
  code: number;
  stats: RawStat[];
  /** git's whole output, empty when nothing changed; null when git failed or hit the cap. */
  patch: Uint8Array | null;
  rows: ParsedAhead | null;
}

/** How one layer is read. */
export interface LayerOptions {
  /** A record read's budget: the layer's files are parsed for it too, spent from a copy. */
  rows?: DiffBudget;
  /**
   * Where `rows` will stand when the read comes to this layer, when that is past where it stands
   * now (the branch layer's parse starts where the worktree layer's left it); the copy is of it.
   * It may still be on its way: what git writes meanwhile waits for it (undefined: no files).
   */
  from?: DiffBudget | Promise<DiffBudget | undefined>;
  /** The patch read cap, default {@link PATCH_READ_CAP}. */
  cap?: number;
}

/**
 * One layer's stats, and its patch when it fitted the read cap, parsed as git writes it (so the
 * parse is done when git's last byte lands); with `rows`, its files too, spent from a copy of
 * `from` (default: `rows` itself). A patch that reaches the cap is counted by git's numstat
 * (its code and stats; no patch, no files).
 */
export async function diffLayer(
  cwd: string,
  against: string,
  opts: LayerOptions = {},
): Promise<Layer> {
  const { rows, cap = PATCH_READ_CAP } = opts;
  // The stream, once where its budget starts is known; what git writes before then waits.
  const parse: { stream?: PatchStream; from?: DiffBudget; spent?: DiffBudget } = {};
  const early: Uint8Array[] = [];
  const begin = (from: DiffBudget | undefined) => {
    parse.from = rows && from;
    parse.spent = parse.from && budgetCopy(parse.from);
    parse.stream = new PatchStream(parse.spent);
    for (const chunk of early.splice(0)) parse.stream.push(chunk);
  };
  // git is started first, so a `from` still on its way is waited for while git writes.
  const from = opts.from ?? rows;
  const begun = from instanceof Promise ? from.then(begin) : begin(from);
  let fed = 0;
  const r = await git(cwd, diffArgs(against, "patch"), {
    maxBytes: cap,
    onChunk: (chunk) => {
      // The chunk that reaches the cap makes the run oversize (the runner's own rule), whose
      // parse numstat replaces: it is not parsed.
      fed += chunk.length;
      if (fed >= cap) return;
      if (parse.stream) parse.stream.push(chunk);
      else early.push(chunk);
    },
  });
  await begun;
  if (r.code === 0) {
    const { stats, rows: parsed } = parse.stream!.end();
    const { from: at, spent } = parse;
    const ahead = rows && at && spent && parsed
      ? { budget: rows, files: at.files, bytes: at.bytes, spent, parsed }
      : null;
    // An empty patch is kept too: the layer was diffed, and a read that reuses it runs no git.
    return { code: 0, stats, patch: r.stdout, rows: ahead };
  }
  if (!r.oversize) return { code: r.code, stats: [], patch: null, rows: null };
  const n = await git(cwd, diffArgs(against, "numstat"));
  return { code: n.code, stats: n.code === 0 ? rawStats(n.stdout) : [], patch: null, rows: null };
}

/** The raw + numstat records of a diff layer's output (its patch, if any, left aside). */
function rawStats(bytes: Uint8Array): RawStat[] {
  return parseRawNumstat(splitHeader(bytes).header.split("\0"));
}
