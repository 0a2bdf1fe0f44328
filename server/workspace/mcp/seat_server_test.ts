// The bridge, as CLI 2.1.332 was measured to speak it: the mcp_message frames in order,
// notifications/cancelled naming the JSON-RPC id, `anthropic/alwaysLoad` (else a tool hides
// behind ToolSearch) and readOnlyHint (else calls in one message run one after another).
import { z } from "zod";
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import { memoryLogger } from "../../log.ts";
import { Refusal, type ToolCall } from "../../subsystem.ts";
import type { JsonObject } from "../claude/mod.ts";
import type { SeatInfo } from "../workspace.ts";
import { endingOf } from "../seats/held.ts";
import type { ToolEntry } from "./catalog.ts";
import { SeatToolServer } from "./seat_server.ts";
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

function seat(label: string): SeatInfo {
  return {
    slot: { org: "Acme", project: "alpha", label },
    project: {} as SeatInfo["project"],
    cwd: "/tmp",
    sessionId: () => null,
  };
}

function tools(park: (call: ToolCall) => Promise<string>): ToolEntry[] {
  return [
    {
      subsystem: "test",
      spec: {
        name: "demo__echo",
        family: "demo",
        description: "echo",
        input: z.object({ word: z.string() }).strict(),
        roles: ["lead", "worker"],
        readOnly: true,
      },
      handler: (input) => Promise.resolve({ text: (input as { word: string }).word }),
    },
    {
      subsystem: "test",
      spec: {
        name: "demo__wait",
        family: "demo",
        description: "parks",
        input: z.object({}),
        roles: ["lead"],
      },
      handler: async (_input, call) => ({ text: await park(call) }),
    },
    {
      subsystem: "test",
      spec: {
        name: "demo__refuse",
        family: "demo",
        description: "refuses",
        input: z.object({}),
        roles: ["lead"],
      },
      handler: () => Promise.reject(new Refusal("demo__refuse", "demo__refuse: not today")),
    },
  ];
}

const rpc = (id: number | null, method: string, params: JsonObject = {}): JsonObject => ({
  subtype: "mcp_message",
  server_name: "forge",
  message: id === null
    ? { jsonrpc: "2.0", method, params }
    : { jsonrpc: "2.0", id, method, params },
});
/** The CLI's initialize params, as CLI 2.1.332 sends them, asking for `version`. */
const hello = (version: string): JsonObject => ({
  protocolVersion: version,
  capabilities: {},
  clientInfo: { name: "claude-code", version: "2.1.332" },
});
const result = (r: JsonObject) => (r.mcp_response as JsonObject).result as JsonObject;
const text = (r: JsonObject) => ((result(r).content as JsonObject[])[0].text as string);

Deno.test("initialize, tools/list (role-filtered, alwaysLoad, readOnlyHint), ping, acks", async () => {
  const lead = new SeatToolServer(
    seat("lead"),
    () => tools(() => Promise.resolve("")),
    memoryLogger(),
  );
  const init = result(await lead.handle(rpc(0, "initialize", hello("2025-11-25"))));
  assertEquals(init.protocolVersion, "2025-11-25");
  assertEquals(init.capabilities, { tools: { listChanged: true } });
  assertEquals(
    await lead.handle(rpc(null, "notifications/initialized")),
    { mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } },
  );
  const listed = result(await lead.handle(rpc(1, "tools/list"))).tools as JsonObject[];
  assertEquals(listed.map((t) => t.name), ["demo__echo", "demo__wait", "demo__refuse"]);
  assertEquals(listed[0]._meta, { "anthropic/alwaysLoad": true });
  assertEquals(listed[0].annotations, { readOnlyHint: true });
  assertEquals(listed[1].annotations, { readOnlyHint: false });
  assertEquals((listed[0].inputSchema as JsonObject).additionalProperties, false);
  const worker = new SeatToolServer(
    seat("w1"),
    () => tools(() => Promise.resolve("")),
    memoryLogger(),
  );
  const theirs = result(await worker.handle(rpc(1, "tools/list"))).tools as JsonObject[];
  assertEquals(theirs.map((t) => t.name), ["demo__echo"], "a lead-only tool is not a worker's");
  assertEquals(result(await lead.handle(rpc(2, "ping"))), {});
  const unknown = await lead.handle(rpc(3, "resources/list"));
  assertEquals(((unknown.mcp_response as JsonObject).error as JsonObject).code, -32601);
});

// MCP lifecycle > Version negotiation: the requested version when supported, else the latest
// the server supports; never an echo of whatever was asked.
Deno.test("initialize negotiates the protocol version by the MCP spec", async () => {
  const s = new SeatToolServer(seat("lead"), () => [], memoryLogger());
  const version = async (asked: string) =>
    result(await s.handle(rpc(0, "initialize", hello(asked)))).protocolVersion;
  assertEquals(await version("2025-06-18"), "2025-06-18", "an older supported version is kept");
  assertEquals(await version("2024-11-05"), "2024-11-05");
  assertEquals(await version("1999-01-01"), LATEST_PROTOCOL_VERSION, "unknown: our latest");
  assertEquals(await version("2099-12-31"), LATEST_PROTOCOL_VERSION, "a future one: our latest");
  assert(SUPPORTED_PROTOCOL_VERSIONS.includes(LATEST_PROTOCOL_VERSION));
  const bad = await s.handle(rpc(1, "initialize", { clientInfo: { name: "x", version: "1" } }));
  const error = (bad.mcp_response as JsonObject).error as JsonObject;
  assertEquals(error.code, -32602);
  assertMatch(String(error.message), /initialize needs params.protocolVersion/);
});

Deno.test("tools/call: result, bad input naming the field, a refusal, an unknown tool", async () => {
  const s = new SeatToolServer(
    seat("lead"),
    () => tools(() => Promise.resolve("")),
    memoryLogger(),
  );
  assertEquals(
    text(await s.handle(rpc(2, "tools/call", { name: "demo__echo", arguments: { word: "hi" } }))),
    "hi",
  );
  const bad = await s.handle(rpc(3, "tools/call", { name: "demo__echo", arguments: { word: 3 } }));
  assertEquals(result(bad).isError, true);
  assertMatch(text(bad), /demo__echo was called with bad input: word: expected string/);
  const extra = await s.handle(
    rpc(4, "tools/call", { name: "demo__echo", arguments: { word: "a", x: 1 } }),
  );
  assertMatch(text(extra), /unknown field x/);
  const refused = await s.handle(rpc(5, "tools/call", { name: "demo__refuse", arguments: {} }));
  assertEquals([result(refused).isError, text(refused)], [true, "demo__refuse: not today"]);
  const none = await s.handle(rpc(6, "tools/call", { name: "demo__nope", arguments: {} }));
  assertMatch(text(none), /forge offers no tool `demo__nope`/);
});

/** A lead's server whose `demo__wait` parks until its call is aborted and answers the ending;
 * `seen` holds each parked call. */
function parkingServer(): { s: SeatToolServer; seen: ToolCall[] } {
  const seen: ToolCall[] = [];
  const park = (call: ToolCall) => {
    seen.push(call);
    return new Promise<string>((resolve) =>
      call.signal.addEventListener("abort", () => resolve(endingOf(call.signal.reason)))
    );
  };
  return { s: new SeatToolServer(seat("lead"), () => tools(park), memoryLogger()), seen };
}

Deno.test("notifications/cancelled aborts the call it names; endAll ends the rest as session_ended", async () => {
  const { s, seen } = parkingServer();
  const first = s.handle(
    rpc(7, "tools/call", {
      name: "demo__wait",
      arguments: {},
      _meta: { "claudecode/toolUseId": "toolu_1" },
    }),
  );
  const second = s.handle(rpc(8, "tools/call", { name: "demo__wait", arguments: {} }));
  await Promise.resolve();
  assertEquals(seen[0].toolUseId, "toolu_1");
  assertEquals(seen[0].role, "lead");
  // A quick call answers while two others are parked: nothing queues behind them.
  assertEquals(
    text(await s.handle(rpc(9, "tools/call", { name: "demo__echo", arguments: { word: "x" } }))),
    "x",
  );
  await s.handle(
    rpc(null, "notifications/cancelled", { requestId: 7, reason: "AbortError: remote-cancel" }),
  );
  assertEquals(text(await first), "cancelled");
  assert(!seen[1].signal.aborted, "only the named call was cancelled");
  s.endAll("the CLI process ended");
  assertEquals(text(await second), "session_ended");
});

Deno.test("a call under the id of one still running is refused; the running one keeps its cancel", async () => {
  const { s, seen } = parkingServer();
  const running = s.handle(rpc(7, "tools/call", { name: "demo__wait", arguments: {} }));
  await Promise.resolve();
  // A refusal answers within the microtasks it runs in; a call that parked would not have by the
  // next macrotask, and the test reports it rather than waiting on it.
  const again = await Promise.race([
    s.handle(rpc(7, "tools/call", { name: "demo__wait", arguments: {} })),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 0)),
  ]);
  assert(again !== null, "the second call under id 7 parked instead of being refused");
  assertEquals(result(again).isError, true);
  assertEquals(text(again), "demo__wait was called under request id 7, which a running call holds");
  assertEquals(seen.length, 1);
  await s.handle(rpc(null, "notifications/cancelled", { requestId: 7 }));
  assertEquals(text(await running), "cancelled");
  // Once the first has answered, its id may be used again.
  assertEquals(
    text(await s.handle(rpc(7, "tools/call", { name: "demo__echo", arguments: { word: "y" } }))),
    "y",
  );
});

Deno.test("tools/call: a result's pictures follow its text as MCP image blocks", async () => {
  const picture: ToolEntry = {
    subsystem: "test",
    spec: {
      name: "demo__shot",
      family: "demo",
      description: "a picture",
      input: z.object({}),
      roles: ["lead"],
    },
    handler: () =>
      Promise.resolve({ text: "saved", images: [{ data: "iVBORw0=", mimeType: "image/png" }] }),
  };
  const s = new SeatToolServer(seat("lead"), () => [picture], memoryLogger());
  const r = result(await s.handle(rpc(1, "tools/call", { name: "demo__shot", arguments: {} })));
  assertEquals(r.content, [
    { type: "text", text: "saved" },
    { type: "image", data: "iVBORw0=", mimeType: "image/png" },
  ]);
});
