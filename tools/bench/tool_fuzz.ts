/**
 * The MCP tool fuzz at full size: every tool the registry lists for a lead, `--per-tool` mutated
 * inputs each (1,000 by default), called as the CLI's control requests reach the seat's MCP
 * server (tests/tool_fuzz.ts), on a server in this process whose lead runs the real claude CLI
 * against the fake Messages API. It prints the counts (tools, calls, handlers that ran, calls
 * cancelled as the CLI cancels them), every engine word found and every call that never ended,
 * and the wall time; it exits non-zero on any hit or hang. No floor: this is a check at size,
 * and its time is printed for the record, not compared.
 *
 *   tools/deno.sh run -A tools/bench/tool_fuzz.ts [--per-tool 1000] [--seed 7]
 */
import { seatWorld } from "../../tests/seats_harness.ts";
import { fuzzTools } from "../../tests/tool_fuzz.ts";
import { numberFlag } from "./support/flags.ts";

const PER_TOOL = numberFlag("per-tool", 1000);
const SEED = numberFlag("seed", 7);

const world = await seatWorld([{ name: "alpha", autoStart: true }]);
try {
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  await forge.ready();
  let server = forge.server.tools.serverFor(lead);
  for (let i = 0; !server && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    server = forge.server.tools.serverFor(lead);
  }
  if (!server) throw new Error("the lead's CLI never connected to forge's MCP server");
  const t0 = performance.now();
  const report = await fuzzTools(server, {
    perTool: PER_TOOL,
    seed: SEED,
    cancelMs: 400,
    hangMs: 15_000,
  });
  const seconds = (performance.now() - t0) / 1000;
  const alive = forge.server.workspace.seat(lead)?.sessionId() !== null;
  console.log(
    `tool fuzz: ${report.tools} tools x ${PER_TOOL} inputs = ${report.calls} calls in ` +
      `${seconds.toFixed(1)} s; handlers ran ${report.ran}, cancelled ${report.cancelled}; ` +
      `engine words ${report.hits.length}, hung ${report.hung.length}; lead alive ${alive}`,
  );
  for (const h of report.hits.slice(0, 20)) console.log(`  hit ${h.tool} ${h.input}\n    ${h.hit}`);
  for (const h of report.hung.slice(0, 20)) console.log(`  hung ${h}`);
  await forge.stop();
  if (report.hits.length > 0 || report.hung.length > 0 || !alive) Deno.exitCode = 1;
} finally {
  await world.dispose();
}
