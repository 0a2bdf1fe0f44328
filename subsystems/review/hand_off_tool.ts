/**
 * `document__hand_off` (the document family): the agent hands one document to the person
 * and waits. The path is confined exactly as `document_read` confines it (the read runs first
 * and its refusal is the agent's answer, nothing parked); then a `document_hand_off` ask parks
 * on the seat until `answer_document_hand_off` brings the reader's decision back.
 */
import { z } from "zod";
import {
  defineTool,
  type Host,
  type ToolCall,
  type ToolHandlerOf,
  type ToolResult,
} from "../../server/subsystem.ts";
import type { DocumentRead } from "./document.ts";
import type { HandOffAnswer } from "../../protocol/mod.ts";

export const DOCUMENT_TOOLS = [defineTool({
  name: "document__hand_off",
  family: "document",
  description:
    "Hand one document (markdown, text or PDF in your working tree or the project's document " +
    "roots) to the person to read, and wait for their decision - possibly hours. Say why in " +
    "`reason`; ask for a review with `reviewable` (not for a PDF). The answer is approve (the " +
    "one signal to proceed on), feedback (revise the document, then hand it off again) or not " +
    "now, with the review id the reader filed and their note.",
  input: z.object({
    path: z.string().min(1).describe("the document, relative to your working directory"),
    reason: z.string().min(1).describe("why the person should read it, in a sentence"),
    reviewable: z.boolean().default(true).describe("ask for a review (line comments)"),
  }).strict(),
  roles: ["lead", "worker"],
})] as const;

/** Reads a document for a seat, exactly as `document_read` does. */
export type ReadForSeat = (
  call: ToolCall,
  path: string,
  reviewable: boolean,
) => Promise<DocumentRead<unknown>>;

export function documentHandOff(
  host: Host,
  read: ReadForSeat,
): ToolHandlerOf<typeof DOCUMENT_TOOLS[0]["input"]> {
  return async ({ path, reason, reviewable }, call): Promise<ToolResult> => {
    const checked = await read(call, path, reviewable);
    if (!checked.ok) {
      return { text: `document__hand_off: ${checked.why}; nothing was handed off.`, isError: true };
    }
    const doc = checked.message;
    const parked = host.asks.park<HandOffAnswer>(call.seat.slot, {
      kind: "document_hand_off",
      request: {
        path: doc.path,
        reviewable,
        reason,
        document_kind: doc.document_kind,
      },
      signal: call.signal,
    });
    const outcome = await parked.outcome;
    if (outcome.ending === "declined") {
      return { text: `The person said not now to ${doc.path}; nothing was opened.`, isError: true };
    }
    if (outcome.ending !== "answered") {
      const why = outcome.ending === "cancelled"
        ? "the call was cancelled"
        : outcome.ending === "session_ended"
        ? "the session ended"
        : `it ended (${outcome.ending})`;
      return {
        text: `The hand-off of ${doc.path} ended without an answer: ${why}.`,
        isError: true,
      };
    }
    const answer = outcome.answer;
    const [decision, verdict] = typeof answer === "object" && "approve" in answer
      ? ["approved", answer.approve] as const
      : [
        "sent back with feedback",
        (answer as { feedback: { review_id: string | null; note: string | null } }).feedback,
      ] as const;
    const next = decision === "approved"
      ? "You may proceed."
      : "Revise the document, then hand it off again.";
    return {
      text: `The person ${decision} ${doc.path}. review_id: ${verdict.review_id ?? "none"}. ` +
        `Note: ${verdict.note ?? "(none)"}. ${next}`,
    };
  };
}
