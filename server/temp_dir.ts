/**
 * forge's own temp space. The launcher's file fence opens this one directory, not the whole
 * shared `/tmp` (docs/permissions.md): every temp file forge itself makes (a dictation take, a
 * festival clip, flite.wasm's work dir) goes here.
 */

import { ioWords } from "./state/words.ts";

type Env = (name: string) => string | undefined;

const systemEnv: Env = (name) => Deno.env.get(name);

/** `$TMPDIR/forge-<uid>`, else `/tmp/forge-<uid>`: the path, made or not. */
export function forgeTempPath(env: Env = systemEnv, uid: number = Deno.uid() ?? 0): string {
  return `${(env("TMPDIR") || "/tmp").replace(/\/+$/, "") || "/"}/forge-${uid}`;
}

/**
 * Where a seat's CLI writes its background tasks' output, which read_call_output reads:
 * `claude-<uid>` under the child's `CLAUDE_CODE_TMPDIR`, else `TMPDIR`, else `/tmp`.
 */
export function claudeTasksPath(env: Env = systemEnv, uid: number = Deno.uid() ?? 0): string {
  const base = env("CLAUDE_CODE_TMPDIR") || env("TMPDIR") || "/tmp";
  return `${base.replace(/\/+$/, "") || "/"}/claude-${uid}`;
}

/**
 * forge's temp dir, made private (0700) on first use. Refuses, in forge's words, a path that is
 * not a directory of this user's: in a shared `/tmp` another user could have made it first.
 */
export async function forgeTempDir(): Promise<string> {
  const dir = forgeTempPath();
  try {
    await Deno.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) {
      throw new Error(`forge's temp dir ${dir} cannot be made: ${ioWords(err)}`, { cause: err });
    }
  }
  const info = await Deno.lstat(dir);
  const uid = Deno.uid();
  if (!info.isDirectory || (uid !== null && info.uid !== uid)) {
    throw new Error(`forge's temp dir ${dir} is not a directory of this user's; remove it`);
  }
  return dir;
}
