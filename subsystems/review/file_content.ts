/**
 * `file_content {session, path, sha}` (spec: client verbs; server message `file_content`): one
 * file's whole content at a revision, for a review page's between-hunk expansion. The revision
 * is resolved to a commit id before git sees it as anything else, the path is refused when it
 * could leave the tree, the size is read first (`git cat-file -s`), and a file over the
 * `[documents] max_size_mib` ceiling answers the whole lines the ceiling reaches, flagged
 * truncated. There is no error arm: every failure is `{"state": "failed", "why": ...}`.
 */
import type { Logger } from "../../server/log.ts";
import type { FileContent } from "../../protocol/mod.ts";
import { resolveCommit } from "./diff.ts";
import { git } from "./git.ts";

/** The `content` of a `file_content` answer: protocol/'s, the schema a client reads it with. */
export type { FileContent };

/** The `file_content` server message; `session` is echoed as given. */
export interface FileContentMessage<S> {
  session: S;
  path: string;
  sha: string | null;
  content: FileContent;
}

/** The `[documents] max_size_mib` default (spec). */
export const DEFAULT_MAX_SIZE_MIB = 10;

const MIB = 1024 * 1024;

/**
 * A repo-relative path that cannot leave the tree: not empty, not absolute, no `.`/`..`/empty
 * segment (git reads `<rev>:./x` and `<rev>:../x` relative to the process's cwd), no NUL or
 * newline. Returns the refusal sentence, or null when the path is acceptable.
 */
export function treePathRefusal(path: string): string | null {
  if (path === "") return "an empty path names no file";
  if (/[\0\n]/.test(path)) return `${JSON.stringify(path)} is not a path`;
  if (path.startsWith("/")) return `${path} is outside the working tree`;
  if (path.split("/").some((seg) => seg === ".." || seg === "." || seg === "")) {
    return `${path} is outside the working tree`;
  }
  return null;
}

/** Answer a `file_content` ask as its server message. Never throws. */
export async function fileContentMessage<S>(
  session: S,
  cwd: string,
  path: string,
  sha: string | null,
  maxSizeMib = DEFAULT_MAX_SIZE_MIB,
  log?: Logger,
): Promise<FileContentMessage<S>> {
  return { session, path, sha, content: await readFileContent(cwd, path, sha, maxSizeMib, log) };
}

/**
 * Read `path` (repo-root relative) at `sha` (null: HEAD, the seat's branch tip). Never throws:
 * a failure is the answer's `why` in forge's words, its engine cause in `log`.
 */
export async function readFileContent(
  cwd: string,
  path: string,
  sha: string | null,
  maxSizeMib = DEFAULT_MAX_SIZE_MIB,
  log?: Logger,
): Promise<FileContent> {
  const failed = (why: string): FileContent => ({ state: "failed", why: `file_content: ${why}` });
  try {
    const refusal = treePathRefusal(path);
    if (refusal) return failed(refusal);
    const commit = await resolveCommit(cwd, sha ?? "HEAD");
    if (!commit.ok) return failed(commit.why);
    const short = commit.id.slice(0, 12);
    const object = `${commit.id}:${path}`;
    const [size, type] = await Promise.all([
      git(cwd, ["cat-file", "-s", object]),
      git(cwd, ["cat-file", "-t", object]),
    ]);
    if (size.code !== 0 || type.code !== 0) return failed(`${path} does not exist at ${short}`);
    const kind = new TextDecoder().decode(type.stdout).trim();
    if (kind !== "blob") return failed(`${path} at ${short} is a ${kind}, not a file`);
    const bytes = Number(new TextDecoder().decode(size.stdout).trim());
    const ceiling = maxSizeMib * MIB;
    const over = bytes > ceiling;
    const blob = await git(cwd, ["cat-file", "blob", object], {
      maxBytes: over ? ceiling : bytes + 1,
    });
    if (blob.code !== 0 && !(over && blob.oversize)) {
      // git's own line stays out of the answer: it goes to the log.
      log?.warn("file_content_failed", { path, sha: short, git: blob.stderr_line });
      return failed(`${path} at ${short} could not be read: git could not read its blob`);
    }
    const body = blob.stdout;
    if (body.subarray(0, 8000).includes(0)) return failed(`${path} at ${short} is a binary file`);
    const lines = new TextDecoder().decode(body).split("\n");
    // A whole file ending in a newline has no line after it; a cut file's last line is partial.
    if (over || lines[lines.length - 1] === "") lines.pop();
    return { state: "read", lines, truncated: over };
  } catch (error) {
    log?.warn("file_content_failed", { path, error });
    return failed(`${path} could not be read: forge's read of it failed; the log has the cause`);
  }
}
