import { isEngineError, readWords } from "../../server/subsystem.ts";
/**
 * `document_read {session, path, reviewable}` (spec: client verbs; server message
 * `document_read`): one document out of the seat's tree or the project's `document_roots`.
 * Confinement comes before any byte is read: a `..` walk or an absolute path elsewhere is
 * refused on its spelling, a symlink pointing out on its real path, and the size ceiling is
 * checked on the file's metadata. The answer is the message or a refusal sentence naming
 * `document_read`; those are its only two.
 */
import { extname, isAbsolute, relative, resolve } from "node:path";
import { Buffer } from "node:buffer";
import { concat } from "./git.ts";
import { contentHash } from "./hash.ts";
import { DEFAULT_MAX_SIZE_MIB } from "./file_content.ts";
import type { ReviewAnchor, ThreadStore } from "./threads.ts";
import type { DocumentKind, DocumentReadFrame, Resolution } from "../../protocol/mod.ts";

/** The `document_read` server message (protocol/documents.ts), for the seat named `S`. */
export type DocumentReadMessage<S> = Omit<DocumentReadFrame, "kind" | "session"> & { session: S };

/** The read's answer: the message, or the refusal sentence for an `error` frame's why. */
export type DocumentRead<S> = { ok: true; message: DocumentReadMessage<S> } | {
  ok: false;
  why: string;
};

/** One ask, with what the caller knows about the seat. */
export interface DocumentAsk {
  /** The seat's own working tree. */
  tree: string;
  /** The project's `document_roots`, absolute. */
  roots: string[];
  path: string;
  reviewable: boolean;
  /** `[documents] max_size_mib` (default 10). */
  maxSizeMib?: number;
  /** The review scope the document's threads live in. */
  store: ThreadStore;
  project: string;
  branch: string;
}

const MIB = 1024 * 1024;
const MARKDOWN = new Set(["md", "markdown", "mdown", "mkd", "mkdn"]);
const TEXT = new Set(["txt", "text", "log"]);

/** The kind an extension names. */
export function kindOf(path: string): DocumentKind {
  const ext = extname(path).slice(1).toLowerCase();
  if (MARKDOWN.has(ext)) return "markdown";
  if (ext === "pdf") return "pdf";
  if (TEXT.has(ext)) return "text";
  return { other: ext };
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/** Read one document for a seat. Never throws: every failure is `{ok: false, why}`. */
export async function readDocument<S>(session: S, ask: DocumentAsk): Promise<DocumentRead<S>> {
  const refuse = (why: string): DocumentRead<S> => ({ ok: false, why: `document_read: ${why}` });
  const name = ask.path;
  try {
    if (name === "" || name.includes("\0")) {
      return refuse(`${JSON.stringify(name)} names no document`);
    }
    const tree = resolve(ask.tree);
    const bases = [tree, ...ask.roots.filter((r) => isAbsolute(r)).map((r) => resolve(r))];
    // Spelling first: a .. walk or an absolute path outside every base is refused unread.
    const spelled = resolve(tree, name);
    if (!bases.some((b) => within(spelled, b))) {
      return refuse(`${name} is outside the working tree`);
    }
    let real: string;
    try {
      real = await Deno.realPath(spelled);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return refuse(`${name} does not exist`);
      return refuse(`${name} could not be resolved: ${message(err)}`);
    }
    // A root that does not resolve holds no document: it is left out of the bases.
    const realBases = (await Promise.all(bases.map((b) => Deno.realPath(b).catch(() => null))))
      .filter((b): b is string => b !== null);
    if (!realBases.some((b) => within(real, b))) {
      return refuse(`${name} is a symlink pointing outside the working tree`);
    }
    const st = await Deno.stat(real);
    if (!st.isFile) return refuse(`${name} is not a file`);
    const ceiling = (ask.maxSizeMib ?? DEFAULT_MAX_SIZE_MIB) * MIB;
    if (st.size > ceiling) {
      return refuse(
        `${name} is ${(st.size / MIB).toFixed(1)} MiB, over the ${
          ask.maxSizeMib ?? DEFAULT_MAX_SIZE_MIB
        } MiB ceiling`,
      );
    }
    const kind = kindOf(real);
    if (kind === "pdf" && ask.reviewable) {
      return refuse(`${name} is a PDF, which cannot be reviewed`);
    }
    const scope = await ask.store.readScope(ask.project, ask.branch);
    if (scope.threads.outcome !== "read") return refuse(scope.threads.value);
    if (scope.reviews.outcome !== "read") return refuse(scope.reviews.value);
    const bytes = await readBounded(real, ceiling);
    const isText = kind === "markdown" || kind === "text";
    let docLines: string[] | null = null;
    if (isText) {
      try {
        docLines = new TextDecoder("utf-8", { fatal: true }).decode(bytes).split("\n");
      } catch {
        // The decoder's words stay out: not UTF-8 is the reason.
        return refuse(`${name} is not UTF-8 text`);
      }
    }
    // A tree that will not resolve is compared as given (it then holds nothing of `real`).
    const realTree = await Deno.realPath(tree).catch(() => tree);
    const treeRel = within(real, realTree) ? relative(realTree, real) : null;
    const mine = scope.threads.value.filter((t) =>
      t.anchor.path === real || t.anchor.path === treeRel
    );
    const filed = new Set(mine.flatMap((t) => t.comments.map((c) => c.review_id)));
    return {
      ok: true,
      message: {
        session,
        path: real,
        document_kind: kind,
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
        reviewable: isText,
        content_hash: await contentHash(bytes),
        threads: mine.map((t) => ({
          ...t,
          resolution: docLines ? resolveAnchor(t.anchor, docLines) : null,
        })),
        reviews: scope.reviews.value.filter((r) => filed.has(r.id)),
      },
    };
  } catch (err) {
    return refuse(`${name} could not be read: ${message(err)}`);
  }
}

/**
 * Re-find an anchor by its first captured line: where it was if that line is still there,
 * else the nearest line equal to it, else `outdated`.
 */
export function resolveAnchor(anchor: ReviewAnchor, lines: string[]): Resolution {
  const first = anchor.context[0];
  if (first === undefined) return "outdated";
  if (lines[anchor.line - 1] === first) return { line: anchor.line };
  let best = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== first) continue;
    if (best < 0 || Math.abs(i + 1 - anchor.line) < Math.abs(best + 1 - anchor.line)) best = i;
  }
  return best < 0 ? "outdated" : { line: best + 1 };
}

/** Read at most `limit` bytes (the size was checked; a file growing meanwhile is cut there). */
async function readBounded(path: string, limit: number): Promise<Uint8Array> {
  using f = await Deno.open(path);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buf = new Uint8Array(64 * 1024);
  while (total < limit) {
    const n = await f.read(buf.subarray(0, Math.min(buf.length, limit - total)));
    if (n === null) break;
    chunks.push(buf.slice(0, n));
    total += n;
  }
  return concat(chunks, total);
}

/** A read's failure in forge's words: the errno named, never the engine's own message. */
function message(err: unknown): string {
  return isEngineError(err) ? readWords(err) : (err as Error).message;
}
