import { z } from "zod";
import {
  describeIssues,
  SeatFramesFrame,
  ServerMessage,
  type Slot,
  UpdateFrame,
  type Wire,
} from "../../../../protocol/mod.ts";
import { type HeardUpdate, isObject, type ReadUpdate, readUpdate } from "./updates.ts";

/**
 * Every frame the page reads, checked against protocol/'s schemas before anything reads it, in
 * ONE pass: a frame that does not fit is refused with forge's words for why, never half-drawn.
 *
 * An update is the frame the socket brings most, and its body is read against its variant's
 * own schema (updates.ts), which says far more than "some JSON". So an `update` frame's envelope
 * is checked with protocol/'s `UpdateFrame` less its body, and the body is read once, by its
 * variant; `seat_frames` likewise for each frame it carries. The socket's JSON.parse already made
 * the frame JSON (link.ts): nothing walks it again to prove that. Every other kind is checked
 * against `ServerMessage` whole; its open bodies are narrowed where they are drawn (narrow.ts).
 * spec: What a client receives; How a message is tagged.
 */

/** One numbered frame of a `seat_frames` answer, read; a frame off its schema is `invalid`. */
export interface NumberedUpdate {
  seq: number | null;
  update: ReadUpdate;
}

/** A frame as the page holds it once read. */
export type Inbound =
  | Exclude<ServerMessage, { kind: "update" | "seat_frames" }>
  | { kind: "update"; update: HeardUpdate; seq: number | null; span: number | undefined }
  | { kind: "seat_frames"; slot: Slot; epoch: string; frames: NumberedUpdate[] };

export type InboundRead = { ok: true; frame: Inbound } | { ok: false; why: string };

const UpdateHead = UpdateFrame.omit({ update: true });
const SeatFramesHead = SeatFramesFrame.omit({ frames: true });
/** A `seat_frames` row besides its update (spec: seat_frames; the server's RangeFrame). */
const RangeHead = z.object({ seq: z.number().int() }).strict();

/** Reads one frame the socket brought. Never throws. */
export function readInbound(raw: Wire): InboundRead {
  if (isObject(raw) && raw.kind === "update") return updateFrame(raw);
  if (isObject(raw) && raw.kind === "seat_frames") return seatFrames(raw);
  const parsed = ServerMessage.safeParse(raw);
  if (!parsed.success) {
    const kind = isObject(raw) && typeof raw.kind === "string" ? raw.kind : "a frame";
    return { ok: false, why: `${kind}: ${describeIssues(parsed.error)}` };
  }
  const frame: ServerMessage = parsed.data;
  // Never true (both kinds took their own path above): the narrowing, said rather than cast.
  if (frame.kind === "update" || frame.kind === "seat_frames") {
    return { ok: false, why: `${frame.kind}: read on its own path` };
  }
  return { ok: true, frame };
}

function updateFrame(raw: Record<string, Wire>): InboundRead {
  const { update, ...envelope } = raw;
  const head = UpdateHead.safeParse(envelope);
  if (!head.success) return { ok: false, why: `update: ${describeIssues(head.error)}` };
  if (update === undefined) return { ok: false, why: "update: `update` is missing" };
  const read = readUpdate(update);
  if (read.known === "invalid") return { ok: false, why: read.why };
  const { seq, span } = head.data;
  return { ok: true, frame: { kind: "update", update: read, seq: seq ?? null, span } };
}

function seatFrames(raw: Record<string, Wire>): InboundRead {
  const { frames, ...envelope } = raw;
  const head = SeatFramesHead.safeParse(envelope);
  if (!head.success) return { ok: false, why: `seat_frames: ${describeIssues(head.error)}` };
  if (!Array.isArray(frames)) return { ok: false, why: "seat_frames: `frames` is not a list" };
  const { slot, epoch } = head.data;
  return { ok: true, frame: { kind: "seat_frames", slot, epoch, frames: frames.map(numbered) } };
}

/** One row of a repair: its number and its update, each refused in words when off schema. */
function numbered(row: Wire, i: number): NumberedUpdate {
  const refused = (why: string): NumberedUpdate => ({
    seq: null,
    update: { name: "?", known: "invalid", key: null, why: `seat_frames frame ${i}: ${why}` },
  });
  if (!isObject(row)) return refused("a frame is {seq, update}");
  const { update, ...rest } = row;
  const head = RangeHead.safeParse(rest);
  if (!head.success) return refused(describeIssues(head.error));
  if (update === undefined) return refused("`update` is missing");
  const read = readUpdate(update);
  return {
    seq: head.data.seq,
    update: read.known === "invalid"
      ? { ...read, why: `seat_frames frame ${i}: ${read.why}` }
      : read,
  };
}
