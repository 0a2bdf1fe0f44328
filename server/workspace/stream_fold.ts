import type { CliFrame } from "../../protocol/mod.ts";

/**
 * Token appends and their fold. spec: What a subject carries > "Two representations of one
 * conversation cross" (consecutive `thinking_tokens` frames merge, their `estimated_tokens_delta`
 * summed, as the original forge's batch merges them).
 *
 * A TOKEN APPEND is a CLI frame whose whole content is tokens added to what is already open:
 * - `system/thinking_tokens`, which grows the turn's estimate by `estimated_tokens_delta`;
 * - a `stream_event` `content_block_delta` carrying `text_delta`, `thinking_delta` or
 *   `input_json_delta`, which grows the open block by its text (the launch turns
 *   `--include-partial-messages` on, so the CLI interleaves one `thinking_tokens` with each
 *   `thinking_delta`: folding only the counters would never find two in a row).
 *
 * A RUN is consecutive appends on one seat's counter whose deltas all grow the same block (same
 * `parent_tool_use_id`, message, index and delta type) and whose counters share one parent. A
 * run folds into ONE frame of the CLI's own shape: the last delta frame (else the last counter)
 * with the run's text concatenated and, when the run held counters, `estimated_tokens_delta`
 * summed and `estimated_tokens` the last one's. Its `uuid` is the last arrival's.
 */

/** Where an append belongs: the block a delta grows, or the parent a counter counts for. */
export interface AppendKind {
  kind: "delta" | "counter";
  /** Deltas of one run share this; counters share `parent`. */
  key: string;
}

type Json = CliFrame[string];
type Obj = { [key: string]: Json };
const DELTA_FIELD: Record<string, string> = {
  text_delta: "text",
  thinking_delta: "thinking",
  input_json_delta: "partial_json",
};

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : null;
}

/** The append kind of a frame, or null when the frame is not a token append. */
export function appendKind(msg: CliFrame): AppendKind | null {
  if (msg.type === "system" && msg.subtype === "thinking_tokens") {
    if (typeof msg.estimated_tokens_delta !== "number") return null;
    return { kind: "counter", key: String(msg.parent_tool_use_id ?? "") };
  }
  if (msg.type !== "stream_event") return null;
  const event = obj(msg.event);
  const delta = obj(event?.delta);
  if (event?.type !== "content_block_delta" || !delta) return null;
  const field = DELTA_FIELD[String(delta.type)];
  if (!field || typeof delta[field] !== "string") return null;
  const parent = String(msg.parent_tool_use_id ?? "");
  return {
    kind: "delta",
    key: `${parent}|${msg.api_message_id ?? ""}|${event.index}|${delta.type}`,
  };
}

/** The keys a run holds so far, to test whether the next append continues it. */
export interface RunKeys {
  delta: string | null;
  counter: string | null;
}

/** Whether an append of `kind` continues a run holding `keys`; updates `keys` when it does. */
export function joinRun(keys: RunKeys, kind: AppendKind): boolean {
  const slot = kind.kind === "delta" ? "delta" : "counter";
  if (keys[slot] !== null && keys[slot] !== kind.key) return false;
  keys[slot] = kind.key;
  return true;
}

/** Folds a run (oldest first, every one a token append) into one frame; a run of one is itself. */
export function foldRun(run: readonly CliFrame[]): CliFrame {
  if (run.length === 1) return run[0];
  let base: CliFrame | null = null;
  let text = "";
  let field = "";
  let sum = 0;
  let counters = 0;
  let estimate: Json | undefined = undefined;
  for (const msg of run) {
    if (appendKind(msg)?.kind === "counter") {
      sum += msg.estimated_tokens_delta as number;
      estimate = msg.estimated_tokens;
      counters++;
      continue;
    }
    const delta = obj(obj(msg.event)?.delta)!;
    field = DELTA_FIELD[String(delta.type)];
    text += delta[field] as string;
    base = msg;
  }
  const last = run[run.length - 1];
  let out: CliFrame;
  if (base) {
    const event = obj(base.event)!;
    out = { ...base, event: { ...event, delta: { ...obj(event.delta)!, [field]: text } } };
  } else {
    out = { ...last };
  }
  if (counters > 0) {
    out.estimated_tokens_delta = sum;
    if (estimate !== undefined) out.estimated_tokens = estimate;
  }
  if (last.uuid !== undefined) out.uuid = last.uuid;
  return out;
}
