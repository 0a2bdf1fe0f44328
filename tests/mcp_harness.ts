import type { Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { chatOf, command, updateOf } from "./seats_harness.ts";

/** The agent-tools tests' fake API script (fixtures/mcp/script.json). */
export const MCP_SCRIPT = new URL("../fixtures/mcp/script.json", import.meta.url).pathname;

export type Msg = Record<string, unknown>;

/** Sends a prompt on the seat and returns the seat's updates up to and including its `result`. */
export async function promptTurn(c: ForgeClient, key: Slot, text: string): Promise<Msg[]> {
  command(c, "prompt", { key, text, attachments: [] });
  return await untilResult(c);
}

/** The seat's updates up to and including the next `result` frame. */
export async function untilResult(c: ForgeClient, ms = 60_000): Promise<Msg[]> {
  const frames: Msg[] = [];
  for (;;) {
    const m = await c.next((f) => f.kind === "update", ms);
    frames.push(m);
    if (chatOf(m)?.type === "result") return frames;
  }
}

/** The text of the tool_result blocks in a turn's frames (forge's answer as the model got it). */
export function toolResultsOf(frames: Msg[]): { text: string; isError: boolean }[] {
  const out: { text: string; isError: boolean }[] = [];
  for (const m of frames) {
    const msg = chatOf(m);
    if (msg?.type !== "user") continue;
    const content = (msg.message as Msg | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as Msg[]) {
      if (block.type !== "tool_result") continue;
      const text = typeof block.content === "string"
        ? block.content
        : (block.content as Msg[]).map((b) => String(b.text ?? "")).join("");
      out.push({ text, isError: block.is_error === true });
    }
  }
  return out;
}

/** The fields of the first update named `name` in a list of frames, or null. */
export function firstUpdate(frames: Msg[], name: string): Msg | null {
  for (const m of frames) {
    const u = updateOf(m, name);
    if (u) return u;
  }
  return null;
}
