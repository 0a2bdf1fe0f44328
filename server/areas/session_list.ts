import type { SessionListEntry } from "../../protocol/mod.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { projectTranscripts, type TranscriptRow } from "./project_catalog.ts";

/**
 * A project's earlier conversations named as the CLI's own resume picker names them:
 * list_sessions' answer (forge's extension; the original's SessionListEntry). The catalog's rows
 * (project_catalog.ts) say which transcripts and when; this reads what to call each: a title the
 * person set with /rename (`custom-title` lines, the last one standing), else the one the CLI
 * made (`ai-title`, then `summary` lines), else the session's first prompt. As the CLI's picker
 * does, only a transcript's head and tail are read, so a long session costs no more than a
 * short one: the first prompt is near the start, the titles are appended as they change.
 */

/** Bytes read from each end of a transcript. */
const END_BYTES = 64 << 10;
/** A first prompt is cut to this many characters: a row's name, not the prompt. */
const PROMPT_CHARS = 200;

interface Names {
  custom_title: string | null;
  ai_title: string | null;
  summary: string | null;
  first_prompt: string | null;
}

/** Each transcript's names as last read, by the catalog's mtime and size for it then. */
const read = new Map<string, { mtime: number; size: number; names: Names }>();

/** The project's transcripts, newest first (at most the catalog's cap), each named. */
export async function listSessions(
  config: ForgeConfig,
  p: ProjectConfig,
): Promise<SessionListEntry[]> {
  const { rows, cwd } = await projectTranscripts(config, p);
  return await Promise.all(rows.map(async (row): Promise<SessionListEntry> => {
    const names = await namesOf(row);
    return {
      session_id: row.session_id,
      summary: names.custom_title ?? names.ai_title ?? names.summary ?? names.first_prompt ?? "",
      last_modified_ms: row.mtime,
      cwd,
      custom_title: names.custom_title,
      first_prompt: names.first_prompt,
    };
  }));
}

const NONE: Names = { custom_title: null, ai_title: null, summary: null, first_prompt: null };

async function namesOf(row: TranscriptRow): Promise<Names> {
  // The catalog stat'ed each transcript already: a file as it was last named is not opened.
  const held = read.get(row.path);
  if (held && held.mtime === row.mtime && held.size === row.size) return held.names;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(row.path);
  } catch {
    return NONE; // Gone since the catalog listed it: a row with nothing to call it.
  }
  using _ = file;
  const { size } = await file.stat();
  const head = await readAt(file, 0, Math.min(size, END_BYTES));
  const tail = size > END_BYTES
    ? await readAt(file, Math.max(END_BYTES, size - END_BYTES), size)
    : new Uint8Array();
  const names = namesIn(head, tail, size <= END_BYTES);
  read.set(row.path, { mtime: row.mtime, size: row.size, names });
  if (read.size > 4096) read.delete(read.keys().next().value!);
  return names;
}

async function readAt(file: Deno.FsFile, from: number, to: number): Promise<Uint8Array> {
  const buf = new Uint8Array(to - from);
  await file.seek(from, Deno.SeekMode.Start);
  let at = 0;
  while (at < buf.length) {
    const n = await file.read(buf.subarray(at));
    if (n === null) break;
    at += n;
  }
  return buf.subarray(0, at);
}

/** The names a transcript's head and tail hold; `whole`: the head is the whole file. A line cut
 * by either end is not read. */
export function namesIn(head: Uint8Array, tail: Uint8Array, whole: boolean): Names {
  const decoder = new TextDecoder();
  const headLines = decoder.decode(head).split("\n");
  if (!whole) headLines.pop();
  const tailLines = decoder.decode(tail).split("\n").slice(1);
  const names: Names = { ...NONE };
  for (const line of [...headLines, ...tailLines]) {
    const value = parsed(line);
    if (value === null) continue;
    const said = (field: string) => typeof value[field] === "string" ? value[field] : null;
    if (value.type === "custom-title") {
      names.custom_title = said("customTitle") ?? names.custom_title;
    } else if (value.type === "ai-title") names.ai_title = said("aiTitle") ?? names.ai_title;
    else if (value.type === "summary") names.summary = said("summary") ?? names.summary;
    else if (names.first_prompt === null && value.type === "user") {
      names.first_prompt = promptOf(value);
    }
  }
  return names;
}

function parsed(line: string): Record<string, unknown> | null {
  if (!line.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? value as Record<string, unknown> : null;
  } catch {
    return null; // A torn or damaged line names nothing; the rest still may.
  }
}

/** A user line's prompt as a person typed it; null for what the CLI wrote in the person's
 * place: meta lines, tool results, and the tags a slash command's run is wrapped in. */
function promptOf(line: Record<string, unknown>): string | null {
  if (line.isMeta === true || line.isCompactSummary === true) return null;
  const message = line.message as { content?: unknown } | undefined;
  const content: unknown = message?.content;
  const blocks: unknown[] = Array.isArray(content) ? content : [];
  const block = blocks.find((b): b is { type: "text"; text: string } =>
    typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text" &&
    typeof (b as { text?: unknown }).text === "string"
  );
  const text = typeof content === "string" ? content : block?.text ?? null;
  if (text === null) return null;
  const plain = text.replace(/\s+/g, " ").trim();
  if (plain === "" || plain.startsWith("<")) return null;
  return plain.length > PROMPT_CHARS ? `${plain.slice(0, PROMPT_CHARS - 1)}…` : plain;
}
