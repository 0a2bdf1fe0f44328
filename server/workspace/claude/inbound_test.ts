// Inbound control requests, as the original forge answers them — answers, errors for unknown
// subtypes, control_cancel_request, and the real CLI's hook_callback and cancel-after-interrupt.
import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { InboundControl } from "./inbound.ts";
import { startHarness } from "../../../tests/claude_support.ts";
import type { CanUseToolHandler, ControlRequestHandler, JsonObject } from "./types.ts";

function harness(
  canUseTool?: CanUseToolHandler,
  other?: ControlRequestHandler,
  onProblem?: (w: string) => void,
) {
  const sent: JsonObject[] = [];
  const { promise: answered, resolve } = Promise.withResolvers<void>();
  const inbound = new InboundControl(
    (l) => {
      sent.push(l);
      resolve();
    },
    canUseTool,
    other,
    onProblem,
  );
  return { sent, answered, inbound };
}

Deno.test("InboundControl: no permission handler denies; unknown subtypes get an error answer", async () => {
  const a = harness();
  a.inbound.handleRequest({
    type: "control_request",
    request_id: "r1",
    request: { subtype: "can_use_tool", tool_name: "Bash", input: {} },
  });
  await a.answered;
  deepStrictEqual(a.sent[0], {
    type: "control_response",
    response: {
      subtype: "success",
      request_id: "r1",
      response: { behavior: "deny", message: "forge: no permission handler" },
    },
  });
  const b = harness();
  b.inbound.handleRequest({
    type: "control_request",
    request_id: "r2",
    request: { subtype: "elicitation" },
  });
  await b.answered;
  deepStrictEqual(b.sent[0], {
    type: "control_response",
    response: {
      subtype: "error",
      request_id: "r2",
      error: "Unsupported control request subtype: elicitation",
    },
  });
});

Deno.test("InboundControl: a cancelled request aborts its handler and gets no answer", async () => {
  let signal: AbortSignal | undefined;
  const { promise: started, resolve } = Promise.withResolvers<void>();
  const problems: string[] = [];
  const c = harness(
    (_req, s) => {
      signal = s;
      resolve();
      return new Promise((res) =>
        s.addEventListener("abort", () => res({ behavior: "deny", message: "late" }))
      );
    },
    undefined,
    (w) => problems.push(w),
  );
  c.inbound.handleRequest({
    type: "control_request",
    request_id: "r3",
    request: { subtype: "can_use_tool", input: {} },
  });
  await started;
  c.inbound.handleCancel({ type: "control_cancel_request", request_id: "r3" });
  ok(signal?.aborted);
  // The handler settles on abort; one macrotask turn lets every microtask after it run.
  await new Promise((r) => setTimeout(r, 0));
  deepStrictEqual(c.sent, []);
  c.inbound.handleRequest({ type: "control_request", request: {} });
  match(problems[0], /malformed control_request/);
});

Deno.test("real CLI: hook_callback goes to onControlRequest; a deny output blocks the tool", async () => {
  await using h = await startHarness({
    replies: [
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "touch hooked.txt", description: "t" },
        }],
      },
      { content: [{ type: "text", text: "blocked" }] },
    ],
  });
  const calls: Array<[string, JsonObject]> = [];
  const { proc, log } = h.spawn({
    canUseTool: (req) => ({ behavior: "allow", updatedInput: req.input }),
    onControlRequest: (subtype, request) => {
      calls.push([subtype, request]);
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "hook says no",
        },
      };
    },
  });
  await proc.initialize({
    hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["hook_pre_bash"] }] },
  });
  proc.sendUserMessage("go");
  await log.next("result");
  deepStrictEqual(
    calls.map(([s, r]) => [s, r.callback_id, (r.input as JsonObject).hook_event_name]),
    [
      ["hook_callback", "hook_pre_bash", "PreToolUse"],
    ],
  );
  await proc.close();
  await rejects(Deno.stat(`${h.cwd}/hooked.txt`), Deno.errors.NotFound, "the hook blocked touch");
});

Deno.test("real CLI: an interrupt while can_use_tool is pending cancels it (control_cancel_request)", async () => {
  await using h = await startHarness({
    replies: [{
      content: [{
        type: "tool_use",
        name: "Bash",
        input: { command: "touch never.txt", description: "t" },
      }],
    }],
  });
  const { promise: asked, resolve } = Promise.withResolvers<AbortSignal>();
  const { proc, log } = h.spawn({
    canUseTool: (_req, signal) => {
      resolve(signal);
      return new Promise(() => {}); // a user who never answers
    },
  });
  proc.sendUserMessage("go");
  const signal = await asked;
  await proc.interrupt();
  const result = await log.next("result");
  ok(signal.aborted, "the CLI cancelled the pending permission request");
  strictEqual(result.subtype, "error_during_execution");
  // The CLI answers the cancelled tool_use itself, as rejected by the user.
  const rejected = log.frames.find((f) =>
    f.type === "user" && f.tool_use_result === "User rejected tool use"
  );
  ok(rejected, "a rejected tool_result frame");
  strictEqual((await proc.close()).code, 1, "exit code 1: the last result was an error");
});
