import type { CallOutput } from "../../../protocol/mod.ts";

/** How much of an output file a read returns: its newest lines, within this many bytes. */
export const OUTPUT_TAIL_BYTES = 64 * 1024;
export const OUTPUT_TAIL_LINES = 200;

export interface CallOutputInput {
  /** The child's CLAUDE_CODE_TMPDIR (else TMPDIR, else /tmp). */
  tmpBase: string;
  uid: number;
  sessionId: string | null;
  /** The live task the call began, when it still runs. */
  taskId: string | null;
  /** The path the task's `task_notification` named, once it ended. */
  outputFile: string | null;
}

/**
 * A call's own output (spec: What a client sends > read_call_output): the path the ending frame
 * named once the task ended, else the one composed from the launch frame's task id -
 * `<base>/claude-<uid>/<slug>/<session-id>/tasks/<task-id>.output`, the slug a wildcard - and
 * its newest lines. Answers `{state: "read", path, lines, truncated}`, or `{state: "none",
 * reason: "no-path"}` when no path resolves to a file. Nothing is parsed out of prose.
 */
export async function readCallOutput(input: CallOutputInput): Promise<CallOutput> {
  const path = input.outputFile ?? await composedPath(input);
  if (!path) return { state: "none", reason: "no-path" };
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    // spec: a call whose output file is gone answers `none`, which is the reason itself.
    return { state: "none", reason: "no-path" };
  }
  try {
    const size = (await file.stat()).size;
    const start = Math.max(0, size - OUTPUT_TAIL_BYTES);
    await file.seek(start, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = await file.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    let text = new TextDecoder().decode(buf.subarray(0, read));
    if (start > 0) text = text.slice(text.indexOf("\n") + 1); // a cut first line is not a line
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const tail = lines.slice(-OUTPUT_TAIL_LINES);
    return { state: "read", path, lines: tail, truncated: start > 0 || tail.length < lines.length };
  } finally {
    file.close();
  }
}

async function composedPath(input: CallOutputInput): Promise<string | null> {
  if (!input.taskId || !input.sessionId) return null;
  const root = `${input.tmpBase}/claude-${input.uid}`;
  try {
    for await (const slug of Deno.readDir(root)) {
      if (!slug.isDirectory) continue;
      const path = `${root}/${slug.name}/${input.sessionId}/tasks/${input.taskId}.output`;
      try {
        await Deno.stat(path);
        return path;
      } catch { /* not this slug */ }
    }
  } catch { /* no root: nothing launched here */ }
  return null;
}
