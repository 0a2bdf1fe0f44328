/**
 * Test and bench support: a long transcript built from real CLI-written lines. Each REPETITION
 * is one of the real sessions (`fixtures/transcripts/`, this folder's `testdata/`) appended whole,
 * its ids made fresh - every uuid, `toolu_` call id, `msg_` message id and background task id
 * replaced by one unique to the repetition - while the session id is one for the whole file. So
 * the file holds thousands of distinct turns of every shape the real ones have (tool round
 * trips, queued prompts, endings landing a turn later, compaction, interrupts), each row unique.
 */

const ROOT = new URL("../../../", import.meta.url);
/** The real sessions, relative to the repository root. */
export const SOURCES = [
  "fixtures/transcripts/plain_text.jsonl",
  "fixtures/transcripts/tool_bash.jsonl",
  "fixtures/transcripts/multi_turn.jsonl",
  "server/workspace/conversation/testdata/queued_prompt.jsonl",
  "server/workspace/conversation/testdata/background_ending.jsonl",
  "server/workspace/conversation/testdata/ending_mid_turn.jsonl",
  "server/workspace/conversation/testdata/compact_interrupt.jsonl",
];
/** The one session id every generated row carries. */
export const GENERATED_SESSION = "9e9e0000-0000-4000-8000-000000000000";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const IDS = new RegExp(`${UUID}|toolu_[A-Za-z0-9]+|msg_[A-Za-z0-9]+`, "g");

/** A session's text cut at its ids: `parts[i]`, then `ids[i]`, ..., then the last part. */
export interface Template {
  name: string;
  parts: string[];
  ids: string[];
  bytes: number;
}

/** Cuts a session's text at its ids. Background task ids (`backgroundTaskId`) count as ids. */
export function template(name: string, source: string): Template {
  const text = source.endsWith("\n") ? source : source + "\n";
  const sessions = new Set<string>();
  const tasks = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    const row = JSON.parse(line);
    if (typeof row.sessionId === "string") sessions.add(row.sessionId);
    const task = row.toolUseResult?.backgroundTaskId;
    if (typeof task === "string") tasks.add(task);
  }
  const alt = [...tasks].map((t) => t.replace(/[^A-Za-z0-9]/g, "")).filter(Boolean);
  const re = alt.length ? new RegExp(`${IDS.source}|${alt.join("|")}`, "g") : IDS;
  const parts: string[] = [];
  const ids: string[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    parts.push(text.slice(at, m.index));
    ids.push(sessions.has(m[0]) ? "" : m[0]); // "" stands for the file's one session id
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return { name, parts, ids, bytes: new TextEncoder().encode(text).length };
}

/** The real sessions as templates. */
export async function loadTemplates(paths: string[] = SOURCES): Promise<Template[]> {
  return await Promise.all(
    paths.map(async (p) => template(p, await Deno.readTextFile(new URL(p, ROOT)))),
  );
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").slice(-width);

/** Repetition `rep` of `t`, every id fresh (deterministic in `rep`). */
export function repetition(t: Template, rep: number): string {
  const fresh = new Map<string, string>();
  let out = t.parts[0];
  for (let i = 0; i < t.ids.length; i++) {
    const id = t.ids[i];
    let to = id === "" ? GENERATED_SESSION : fresh.get(id);
    if (to === undefined) {
      const k = fresh.size;
      // Same length as the id it replaces, so a repetition is exactly its template's size.
      if (id.length === 36 && id[8] === "-") {
        to = `${hex(rep, 8)}-${hex(k, 4)}-4000-8000-9e9e00000000`;
      } else {
        const prefix = id.startsWith("toolu_")
          ? "toolu_gen"
          : id.startsWith("msg_")
          ? "msg_gen"
          : "t";
        to = `${prefix}${hex(rep, 6)}${hex(k, 3)}`.padEnd(id.length, "0").slice(-id.length);
      }
      fresh.set(id, to);
    }
    out += to + t.parts[i + 1];
  }
  return out;
}

/**
 * Writes repetitions round the templates into `path` until it holds at least `targetBytes`;
 * answers the bytes written and how many repetitions.
 */
export async function writeGenerated(
  path: string,
  targetBytes: number,
  templates?: Template[],
): Promise<{ bytes: number; repetitions: number }> {
  const ts = templates ?? await loadTemplates();
  const enc = new TextEncoder();
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let bytes = 0;
  let rep = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  while (bytes < targetBytes) {
    const t = ts[rep % ts.length];
    batch.push(repetition(t, rep++));
    batchBytes += t.bytes;
    bytes += t.bytes;
    if (batchBytes >= 4 << 20 || bytes >= targetBytes) {
      const data = enc.encode(batch.join(""));
      for (let at = 0; at < data.length;) at += await file.write(data.subarray(at));
      batch = [];
      batchBytes = 0;
    }
  }
  return { bytes: (await file.stat()).size, repetitions: rep };
}
