import type { CliFrame } from "../../../../protocol/mod.ts";

/**
 * The client's own fold: one turn's frames (the CLI's stream-json, as a snapshot, a `more` page,
 * a `seat_frames` repair or the live stream carries them) into the rows a page draws. spec: "Two
 * representations of one conversation cross" - both paths carry frames of one shape, so one rule
 * folds both; how tool calls group and how token runs fold is the client's decision.
 */

/** One tool call with its result once the result frame arrived. */
export interface ToolRow {
  id: string;
  name: string;
  input: unknown;
  result: { text: string; isError: boolean } | null;
}

export type Row =
  | {
    kind: "prompt";
    text: string;
    source: string | null;
    uuid: string | null;
    /** The images the prompt carried (spec: prompt's `attachments`), as `data:` addresses. */
    images: string[];
  }
  | { kind: "text"; text: string; streaming: boolean }
  | { kind: "thinking"; text: string; streaming: boolean }
  | { kind: "tools"; calls: ToolRow[] }
  | { kind: "tokens"; tokens: number }
  | {
    kind: "result";
    ok: boolean;
    text: string;
    durationMs: number | null;
    cost: number | null;
  };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj | null => isObj(v) ? v : null;

/** The words of a user message's content: a string, or its text blocks joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => {
    const block = obj(b);
    if (!block) return "";
    if (block.type === "text") return String(block.text ?? "");
    if (block.type === "tool_result") return contentText(block.content);
    return "";
  }).filter(Boolean).join("\n");
}

/** A user message's base64 image blocks (the forged turn of a prompt with attachments). */
function contentImages(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => {
    const source = obj(obj(b)?.type === "image" ? obj(b)?.source : null);
    if (source?.type !== "base64" || typeof source.data !== "string") return [];
    return [`data:${String(source.media_type)};base64,${source.data}`];
  });
}

/** Whether a frame opens a turn: a prompt (a person's words or a forged delivery), not a tool result. */
export function isPrompt(frame: CliFrame): boolean {
  if (frame.type !== "user") return false;
  const content = obj(frame.message)?.content;
  if (typeof content === "string") return true;
  return Array.isArray(content) &&
    !content.some((b) => obj(b)?.type === "tool_result");
}

/** Folds one turn's frames, oldest first, into rows. Pure. */
export function foldTurn(frames: readonly CliFrame[]): Row[] {
  const rows: Row[] = [];
  const calls = new Map<string, ToolRow>();
  // Streamed blocks not yet closed by their `assistant` frame, by block index.
  // The CLI sends a block's `assistant` frame before its content_block_stop, so that frame is
  // what ends the streamed copy.
  const partials = new Map<number, Partial>();
  let tokens: { kind: "tokens"; tokens: number } | null = null;
  const lastTools = () => {
    const last = rows.at(-1);
    return last?.kind === "tools" ? last : null;
  };
  for (const frame of frames) {
    if (frame.type === "system" && frame.subtype === "thinking_tokens") {
      // A run of counters draws as one row: the turn's estimate is the sum of the deltas.
      const delta = typeof frame.estimated_tokens_delta === "number"
        ? frame.estimated_tokens_delta
        : 0;
      if (!tokens) rows.push(tokens = { kind: "tokens", tokens: 0 });
      tokens.tokens += delta;
      continue;
    }
    if (frame.type === "stream_event") {
      streamEvent(obj(frame.event), partials);
      continue;
    }
    if (frame.type === "user") {
      const message = obj(frame.message);
      if (isPrompt(frame)) {
        rows.push({
          kind: "prompt",
          text: contentText(message?.content),
          source: typeof frame.source === "string" ? frame.source : null,
          uuid: typeof frame.uuid === "string" ? frame.uuid : null,
          images: contentImages(message?.content),
        });
        continue;
      }
      for (const b of Array.isArray(message?.content) ? message.content : []) {
        const block = obj(b);
        if (block?.type !== "tool_result") continue;
        const call = calls.get(String(block.tool_use_id));
        if (call) {
          call.result = {
            text: contentText(block.content),
            isError: block.is_error === true,
          };
        }
      }
      continue;
    }
    if (frame.type === "assistant") {
      partials.clear();
      const content = obj(frame.message)?.content;
      for (const b of Array.isArray(content) ? content : []) {
        const block = obj(b);
        if (!block) continue;
        if (block.type === "text" && String(block.text ?? "").trim()) {
          rows.push({
            kind: "text",
            text: String(block.text),
            streaming: false,
          });
        } else if (
          block.type === "thinking" && String(block.thinking ?? "").trim()
        ) {
          rows.push({
            kind: "thinking",
            text: String(block.thinking),
            streaming: false,
          });
        } else if (block.type === "tool_use") {
          const call: ToolRow = {
            id: String(block.id),
            name: String(block.name),
            input: block.input,
            result: null,
          };
          calls.set(call.id, call);
          const group = lastTools();
          if (group) group.calls.push(call);
          else rows.push({ kind: "tools", calls: [call] });
        }
      }
      continue;
    }
    if (frame.type === "result") {
      rows.push({
        kind: "result",
        ok: frame.subtype === "success" && frame.is_error !== true,
        text: typeof frame.result === "string" ? frame.result : String(frame.subtype ?? ""),
        durationMs: typeof frame.duration_ms === "number" ? frame.duration_ms : null,
        cost: typeof frame.total_cost_usd === "number" ? frame.total_cost_usd : null,
      });
    }
  }
  for (const p of partials.values()) {
    if (p.text) rows.push({ kind: p.kind, text: p.text, streaming: true });
  }
  return rows;
}

type Partial = { kind: "text" | "thinking"; text: string };

function streamEvent(event: Obj | null, partials: Map<number, Partial>): void {
  if (!event) return;
  const index = typeof event.index === "number" ? event.index : -1;
  if (event.type === "message_start") {
    partials.clear();
  } else if (event.type === "content_block_delta") {
    const delta = obj(event.delta);
    const kind = delta?.type === "text_delta"
      ? "text"
      : delta?.type === "thinking_delta"
      ? "thinking"
      : null;
    if (!kind) return;
    const piece = String(
      kind === "text" ? delta!.text ?? "" : delta!.thinking ?? "",
    );
    const open = partials.get(index);
    if (open && open.kind === kind) open.text += piece;
    else partials.set(index, { kind, text: piece });
  }
}
