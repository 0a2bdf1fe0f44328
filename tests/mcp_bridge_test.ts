// Spawned tier: forge runs as a process; its lead runs the real claude CLI against the fake
// Messages API, scripted to call forge's own MCP tools. The test is a socket client.
// The bridge, as CLI 2.1.332 was measured to need it: every seat's CLI gets forge's sdk server
// `forge`; its tools are alwaysLoad and pre-allowed (no permission prompt) and answered over the
// control protocol; bad tool input is a tool error naming the field, and the session goes on.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { MCP_SCRIPT, promptTurn, toolResultsOf } from "./mcp_harness.ts";
import { chatOf, command, seatWorld, subscribeSeat, until, updateOf } from "./seats_harness.ts";
import type { Msg } from "./mcp_harness.ts";

Deno.test("forge's MCP server: settings__get answers the agent with no permission prompt", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const frames = await promptTurn(c, lead, "[[script:get]] read the bind address");
  const init = frames.map(chatOf).find((f) => f?.type === "system" && f.subtype === "init")!;
  assert(
    (init.mcp_servers as { name: string; status: string }[]).some((s) =>
      s.name === "forge" && s.status === "connected"
    ),
    `forge's server is connected: ${JSON.stringify(init.mcp_servers)}`,
  );
  assert((init.tools as string[]).includes("mcp__forge__settings__get"), "the tool is listed");
  assert(!frames.some((m) => updateOf(m, "permission_request")), "no permission prompt");
  const [result] = toolResultsOf(frames);
  assertEquals(result.isError, false);
  assertEquals(JSON.parse(result.text), [
    { path: "server.bind", value: "127.0.0.1", class: "restart" },
  ]);

  // alwaysLoad: the model received the tool's schema itself, not a ToolSearch placeholder.
  const requests = await world.apiRequests() as unknown as {
    kind: string;
    body: { tools?: { name: string; input_schema?: unknown }[] };
  }[];
  const main = requests.filter((r) => r.kind === "main");
  const listed = main.at(-1)!.body.tools!.find((t) => t.name === "mcp__forge__settings__get");
  assert(listed?.input_schema, "the schema went to the model");

  // Bad input: a tool error naming the field; the turn ends normally.
  const bad = await promptTurn(c, lead, "[[script:badget]] read it wrongly");
  const [refused] = toolResultsOf(bad);
  assertEquals(refused.isError, true);
  assertMatch(refused.text, /settings__get was called with bad input: keys: expected array/);
  const end = chatOf(bad.at(-1)!)!;
  assertEquals(end.subtype, "success");

  // The session's mcp field: forge connected, with its tools (mcp_status, read on attach).
  const viewer = await forge.ready();
  const snap = await subscribeSeat(viewer, lead) as { mcp: { servers: Msg[] } | null };
  const servers = snap.mcp?.servers ??
    (updateOf(await viewer.next((m) => !!updateOf(m, "mcp_snapshot")), "mcp_snapshot")!
      .servers as Msg[]);
  const mine = servers.find((s) => s.name === "forge")!;
  assertEquals(mine.status, "connected");
  assert((mine.tools as Msg[]).some((t) => t.name === "settings__get"), "its tools are listed");

  // reconnect_mcp_server reads the snapshot again; an operation the CLI refuses is named.
  const snapshots = () =>
    c.frames.flatMap((f) =>
      f.type === "json" && updateOf(f.data, "mcp_snapshot")
        ? [updateOf(f.data, "mcp_snapshot")!]
        : []
    );
  const seen = snapshots().length;
  command(c, "reconnect_mcp_server", { key: lead, server_name: "forge" });
  await until(() => snapshots().length > seen, 10_000, "a fresh mcp_snapshot");
  const again = snapshots().at(-1)!;
  assertEquals((again.servers as Msg[]).find((s) => s.name === "forge")?.status, "connected");
  command(c, "toggle_mcp_server", { key: lead, server_name: "nope", enabled: false });
  const failed = updateOf(
    await c.next((m) => !!updateOf(m, "mcp_operation_error")),
    "mcp_operation_error",
  )!;
  const error = failed.error as Msg;
  assertEquals([error.server_name, error.operation], ["nope", "toggle"]);
  // forge's sentence naming the operation and the server, with the CLI's reason; no request id.
  assertEquals(
    error.message,
    'turning MCP server "nope" off failed: the CLI answered "Server not found: nope"',
  );
});
