// forge's own words on the wire, for its MCP tools: every tool the
// registry lists for a lead is called with mutated inputs, exactly as the CLI's control requests
// reach the seat's MCP server, while a client holds home and the seat. No tool result and no
// frame carries an engine's or a library's message; a call the CLI cancels ends; the server
// answers and the seat's CLI lives on. tools/bench/tool_fuzz.ts runs the same at 1,000 inputs
// per tool.
import { assert, assertEquals } from "./assert.ts";
import { seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";
import { engineWords, fuzzTools } from "./tool_fuzz.ts";

const PER_TOOL = Number(Deno.env.get("FORGE_TOOL_FUZZ_PER_TOOL") ?? "60");

Deno.test("every MCP tool, fuzzed as the CLI calls it: forge's words only; server and seat live", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: true }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  c.send({ kind: "subscribe", what: "home" });
  c.send({ kind: "subscribe", what: "board" });
  const tools = forge.server.tools.serverFor(lead);
  assert(tools, "the lead's CLI is connected to forge's MCP server");
  const seat = forge.server.workspace.seat(lead)!;

  const report = await fuzzTools(tools, {
    perTool: PER_TOOL,
    seed: 7,
    cancelMs: 400,
    hangMs: 15_000,
  });
  assert(report.tools >= 20, `the registry lists the lead's tools (${report.tools})`);
  assert(report.ran > report.tools, `handlers ran, not only the schema checks (${report.ran})`);
  assertEquals(report.hits, [], "tool results carry no engine words");
  assertEquals(report.hung, [], "every cancelled call ended");

  // The frames every viewer saw meanwhile carry none either.
  const frames = c.frames.flatMap((f) => (f.type === "json" ? [JSON.stringify(f.data)] : []));
  const hits = frames.map(engineWords).filter((h) => h !== null);
  assertEquals(hits, [], "no frame carries engine words");
  // The server answers, and the seat's CLI is the one that was there.
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  assert(seat.sessionId() !== null, "the lead still holds its session");
  assert(!c.frames.some((f) => f.type === "json" && updateOf(f.data, "connection_failed")));
  console.log(JSON.stringify({ ...report, hits: report.hits.length, hung: report.hung.length }));
});
