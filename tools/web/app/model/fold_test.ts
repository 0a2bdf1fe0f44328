import { assertEquals } from "../../../../tests/assert.ts";
import { foldTurn } from "./fold.ts";

// spec: "Two representations of one conversation cross, and they agree" - one fold draws both the
// live stream's frames and a page's; the grouping of tool calls and token runs is the client's.

const prompt = {
  type: "user",
  message: { role: "user", content: "go" },
  uuid: "p1",
  source: "cron",
};
const delta = (index: number, text: string) => ({
  type: "stream_event",
  event: { type: "content_block_delta", index, delta: { type: "text_delta", text } },
});
const assistant = (...content: unknown[]) => ({ type: "assistant", message: { content } });
const counter = (n: number) => ({
  type: "system",
  subtype: "thinking_tokens",
  estimated_tokens_delta: n,
});

Deno.test("fold: a forged prompt keeps its source; a streamed block ends at its assistant frame", () => {
  const streaming = foldTurn([prompt, delta(0, "Hel"), delta(0, "lo")] as never);
  assertEquals(streaming, [
    { kind: "prompt", text: "go", source: "cron", uuid: "p1", images: [] },
    { kind: "text", text: "Hello", streaming: true },
  ]);
  // The CLI sends the block's assistant frame before its content_block_stop.
  const done = foldTurn([
    prompt,
    delta(0, "Hel"),
    delta(0, "lo"),
    assistant({ type: "text", text: "Hello" }),
    { type: "stream_event", event: { type: "content_block_stop", index: 0 } },
  ] as never);
  assertEquals(done.slice(1), [{ kind: "text", text: "Hello", streaming: false }]);
});

Deno.test("fold: consecutive tool calls group, each with its result; a token run is one row", () => {
  const rows = foldTurn([
    prompt,
    counter(5),
    counter(7),
    assistant({ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }),
    assistant({ type: "tool_use", id: "t2", name: "Read", input: { file_path: "a" } }),
    {
      type: "user",
      message: {
        content: [{ type: "tool_result", tool_use_id: "t1", content: "a\nb", is_error: false }],
      },
    },
    {
      type: "user",
      message: {
        content: [{
          type: "tool_result",
          tool_use_id: "t2",
          content: [
            { type: "text", text: "nope" },
          ],
          is_error: true,
        }],
      },
    },
    assistant({ type: "text", text: "listed" }),
    { type: "result", subtype: "success", is_error: false, result: "listed", duration_ms: 1200 },
  ] as never);
  assertEquals(rows.map((r) => r.kind), ["prompt", "tokens", "tools", "text", "result"]);
  assertEquals(rows[1], { kind: "tokens", tokens: 12 });
  const tools = rows[2] as { calls: { id: string; result: unknown }[] };
  assertEquals(tools.calls.map((c) => [c.id, c.result]), [
    ["t1", { text: "a\nb", isError: false }],
    ["t2", { text: "nope", isError: true }],
  ]);
});

Deno.test("fold: a prompt's images are drawn beside its words", () => {
  const withImage = {
    type: "user",
    source: "you",
    uuid: "p2",
    message: {
      content: [
        { type: "text", text: "what is this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
      ],
    },
  };
  assertEquals(foldTurn([withImage] as never), [{
    kind: "prompt",
    text: "what is this?",
    source: "you",
    uuid: "p2",
    images: ["data:image/png;base64,iVBO"],
  }]);
});
