// Outbound control requests against the real CLI (the subtypes the original forge sends) and an
// interrupt in the middle of a slow stream.
import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { ControlChannel, ControlError } from "./control.ts";
import { isResult, startHarness } from "../../../tests/claude_support.ts";
import type { JsonObject } from "./types.ts";

Deno.test("interrupt mid-stream ends the turn as error_during_execution; the next turn runs", async () => {
  await using h = await startHarness({
    replies: [
      { content: [{ type: "text", text: "x".repeat(400) }], chunk_chars: 4, chunk_delay_ms: 100 },
      { content: [{ type: "text", text: "second turn" }] },
    ],
  });
  const { proc, log } = h.spawn();
  const init = await proc.initialize();
  ok(Array.isArray(init.commands), "initialize answers with the command list");
  proc.sendUserMessage("slow please");
  await log.waitFor(
    (f) => f.type === "stream_event" && (f.event as JsonObject).type === "content_block_delta",
    "first delta",
  );
  const answer = await proc.interrupt();
  deepStrictEqual(answer.still_queued, []);
  const result = await log.next("result");
  // The reply is 100 deltas of 4 characters; the interrupt cut it short, so fewer crossed before
  // the result. (How soon the result follows the interrupt is the lifecycle bench's figure.)
  const deltas =
    log.frames.filter((f) =>
      f.type === "stream_event" && (f.event as JsonObject).type === "content_block_delta"
    ).length;
  ok(deltas > 0 && deltas < 100, `${deltas} of 100 deltas crossed before the result`);
  deepStrictEqual([result.subtype, result.is_error, result.terminal_reason], [
    "error_during_execution",
    true,
    "aborted_streaming",
  ]);
  ok(
    log.frames.some((f) =>
      f.type === "user" && JSON.stringify(f.message).includes("[Request interrupted by user]")
    ),
    "the CLI reports the interruption as a user frame",
  );

  const mark = log.mark();
  proc.sendUserMessage("again");
  const next = await log.waitFor(isResult, "second result", mark);
  deepStrictEqual([next.subtype, next.result], ["success", "second turn"]);
  strictEqual((await proc.close()).code, 0);
});

Deno.test("set_permission_mode, set_model, get_context_usage, mcp_status; unknown subtypes fail", async () => {
  await using h = await startHarness();
  const { proc } = h.spawn();
  deepStrictEqual(await proc.setPermissionMode("acceptEdits"), { mode: "acceptEdits" });
  deepStrictEqual(await proc.setModel("claude-sonnet-4-5"), { model: "claude-sonnet-4-5" });
  const usage = await proc.getContextUsage();
  ok(
    typeof usage.totalTokens === "number" && Array.isArray(usage.categories),
    "context usage has totals",
  );
  deepStrictEqual(await proc.mcpStatus(), { mcpServers: [] });
  const err = await proc.request("no_such_thing").catch((e) => e);
  ok(err instanceof ControlError);
  strictEqual(err.code, "unsupported_request");
  // The id stays on the error (for the log), out of the words a frame may carry.
  match(err.requestId, /^req_\d+_[0-9a-f]{8}$/);
  match(
    err.message,
    /^claude control request no_such_thing failed: the CLI answered "Unsupported control request subtype/,
  );
  ok(!err.message.includes("req_"), err.message);
  // set_model's probe call and get_context_usage's token counts are side calls: no main call.
  strictEqual(h.api.mainRequests().length, 0);
  ok(
    h.api.requests.some((r) => r.kind === "side" && r.body?.max_tokens === 1),
    "set_model probed the model",
  );
  await proc.close();
  await rejects(proc.mcpStatus(), /mcp_status failed: claude exited \(code 0\)/);
});

Deno.test("ControlChannel: ids, success and error routing, timeout, close", async () => {
  const sent: JsonObject[] = [];
  const ch = new ControlChannel((l) => sent.push(l), 50);
  const ok1 = ch.request("mcp_status");
  const id1 = String(sent[0].request_id);
  match(id1, /^req_1_[0-9a-f]{8}$/);
  deepStrictEqual(sent[0].request, { subtype: "mcp_status" });
  strictEqual(
    ch.handleResponse({
      type: "control_response",
      response: { subtype: "success", request_id: "nope" },
    }),
    false,
  );
  ok(
    ch.handleResponse({
      type: "control_response",
      response: { subtype: "success", request_id: id1, response: { a: 1 } },
    }),
  );
  deepStrictEqual(await ok1, { a: 1 });
  const bad = ch.request("set_model", { model: "m" });
  const id2 = String(sent[1].request_id);
  ch.handleResponse({
    type: "control_response",
    response: { subtype: "error", request_id: id2, error: "no such model" },
  });
  await rejects(bad, {
    message: 'claude control request set_model failed: the CLI answered "no such model"',
  });
  await rejects(ch.request("interrupt"), {
    message: "claude control request interrupt failed: the CLI did not answer within 50 ms",
  });
  const unsent = await new ControlChannel(() => {
    throw new TypeError("Broken pipe (os error 32)");
  }).request("mcp_status").catch((e) => e);
  strictEqual(
    unsent.message,
    "claude control request mcp_status failed: it could not be written to the CLI",
  );
  strictEqual(String(unsent.cause), "TypeError: Broken pipe (os error 32)");
  const pending = ch.request("mcp_status");
  ch.close("claude exited (code 1)");
  await rejects(pending, /claude exited \(code 1\)/);
  await rejects(ch.request("mcp_status"), /claude exited/);
  strictEqual(ch.pending, 0);
});
