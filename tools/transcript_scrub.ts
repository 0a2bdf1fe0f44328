import { projectSlug, transcriptPath } from "../server/workspace/claude/paths.ts";
import type { CliHarness } from "../tests/claude_support.ts";

/**
 * What every committed transcript goes through before it lands in the repo (see
 * fixtures/transcripts/README.md): this machine's paths, the fake API's URL and the kernel release
 * replaced by placeholders, and the bulk of the CLI's own system prompt and tool schemas elided.
 * Used by tools/capture_transcripts.ts and the conversation captures.
 */

/** Placeholders for this machine's paths, longest first so nested paths map as a whole. */
export function scrubber(h: CliHarness): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [h.cwd, "/home/user/project"],
    [h.configDir, "/home/user/.claude"],
    [h.tmpDir, "/home/user/.cache/claude-tmp"],
    [h.home, "/home/user"],
    [h.root, "/home/user/scratch"],
    [projectSlug(h.cwd), projectSlug("/home/user/project")],
    [projectSlug(h.root), projectSlug("/home/user/scratch")],
    [h.api.url, "http://127.0.0.1:8080"],
    // The environment attachment records the kernel release (osVersion).
    [Deno.osRelease(), "6.1.0-generic"],
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => pairs.reduce((acc, [from, to]) => acc.replaceAll(from, to), s);
}

/** Lines whose bulk is the CLI's own system prompt, tool schemas and listings. */
const BULKY = new Set(["attachment", "api-request-shape", "api-request-blob"]);
const MAX_STRING = 300;

function elide(v: unknown): unknown {
  if (typeof v === "string") return v.length > MAX_STRING ? `<elided ${v.length} chars>` : v;
  if (Array.isArray(v)) return v.map(elide);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, elide(x)]));
  }
  return v;
}

/**
 * Bulky line types lose their long strings, except a queued command's prompt (a task ending's
 * `<task-notification>` text is what a reader parses); every other line stays byte for byte.
 */
export function compact(jsonl: string): string {
  return jsonl.split("\n").map((line) => {
    if (!line) return line;
    const row = JSON.parse(line);
    if (!BULKY.has(row.type)) return line;
    const prompt = row.attachment?.type === "queued_command" ? row.attachment.prompt : undefined;
    const out = elide(row) as { attachment?: { prompt?: unknown } };
    if (prompt !== undefined && out.attachment) out.attachment.prompt = prompt;
    return JSON.stringify(out);
  }).join("\n");
}

/** Reads a finished session's transcript, scrubs it, and writes `<outDir>/<name>.jsonl`. */
export async function saveTranscript(
  h: CliHarness,
  sessionId: string,
  name: string,
  outDir: string,
  expect?: string,
): Promise<string> {
  const raw = await Deno.readTextFile(transcriptPath(h.configDir, h.cwd, sessionId));
  const text = compact(scrubber(h)(raw));
  if (text.includes(h.root)) throw new Error(`${name}: a temp path survived scrubbing`);
  if (expect !== undefined && !text.includes(expect)) {
    throw new Error(`${name}: the transcript lacks ${expect}`);
  }
  const out = `${outDir}/${name}.jsonl`;
  await Deno.writeTextFile(out, text);
  return out;
}
