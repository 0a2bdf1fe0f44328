/**
 * The MCP tool fuzz at full size: every tool the registry lists for a lead, `--per-tool` mutated
 * inputs each (1,000 by default), called as the CLI's control requests reach the seat's MCP
 * server (tests/tool_fuzz.ts), on a server in this process whose lead runs the real claude CLI
 * against the fake Messages API. It prints the counts (tools, calls, handlers that ran, calls
 * cancelled as the CLI cancels them), every engine word found and every call that never ended,
 * and the wall time; it exits non-zero on any hit or hang. No floor: this is a check at size,
 * and its time is printed for the record, not compared.
 *
 * The tools are dealt into `--groups` groups fuzzed at once (each its own seed, seed + group):
 * a call that parks an ask for the person waits out its cancel (400 ms), which was over half of
 * a serial run, and the groups' waits overlap. A family's tools (`board__*`, `browser_*`) stay in
 * one group, called one after another as before: the browser's share one page.
 *
 *   tools/deno.sh run -A tools/bench/tool_fuzz.ts [--per-tool 1000] [--seed 7] [--groups 4]
 */
import { seatWorld } from "../../tests/seats_harness.ts";
import { type FuzzReport, fuzzTools } from "../../tests/tool_fuzz.ts";
import { numberFlag } from "./support/flags.ts";

const PER_TOOL = numberFlag("per-tool", 1000);
const SEED = numberFlag("seed", 7);
const GROUPS = Math.max(1, numberFlag("groups", 4));

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
  const listed = await server.handle({
    subtype: "mcp_message",
    server_name: "forge",
    message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  const names = (listed.mcp_response as { result: { tools: { name: string }[] } }).result.tools
    .map((t) => t.name);
  const groups = dealt(names, GROUPS);
  const reports = await Promise.all(groups.map((group, g) =>
    fuzzTools(server!, {
      perTool: PER_TOOL,
      seed: SEED + g,
      cancelMs: 400,
      hangMs: 15_000,
      skip: names.filter((n) => !group.includes(n)),
    })
  ));
  const report: FuzzReport = {
    tools: sum(reports.map((r) => r.tools)),
    calls: sum(reports.map((r) => r.calls)),
    ran: sum(reports.map((r) => r.ran)),
    cancelled: sum(reports.map((r) => r.cancelled)),
    hits: reports.flatMap((r) => r.hits),
    hung: reports.flatMap((r) => r.hung),
  };
  const seconds = (performance.now() - t0) / 1000;
  const sizes = groups.map((g) => g.length).join("+");
  const alive = forge.server.workspace.seat(lead)?.sessionId() !== null;
  console.log(
    `tool fuzz: ${report.tools} tools x ${PER_TOOL} inputs = ${report.calls} calls in ` +
      `${seconds.toFixed(1)} s (${groups.length} groups at once: ${sizes} tools); ` +
      `handlers ran ${report.ran}, cancelled ${report.cancelled}; engine words ${report.hits.length}, hung ${report.hung.length}; lead alive ${alive}`,
  );
  for (const h of report.hits.slice(0, 20)) console.log(`  hit ${h.tool} ${h.input}\n    ${h.hit}`);
  for (const h of report.hung.slice(0, 20)) console.log(`  hung ${h}`);
  await forge.stop();
  if (report.hits.length > 0 || report.hung.length > 0 || !alive) Deno.exitCode = 1;
} finally {
  await world.dispose();
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/**
 * `names` in `n` groups, each family whole (the name up to `__`, else up to its first `_`): the
 * largest family first into the group with the fewest tools so far.
 */
function dealt(names: string[], n: number): string[][] {
  const families = new Map<string, string[]>();
  for (const name of names) {
    const family = name.includes("__") ? name.split("__")[0] : name.split("_")[0];
    families.set(family, [...(families.get(family) ?? []), name]);
  }
  const groups: string[][] = Array.from({ length: n }, () => []);
  for (const tools of [...families.values()].sort((a, b) => b.length - a.length)) {
    groups.reduce((least, g) => g.length < least.length ? g : least).push(...tools);
  }
  return groups.filter((g) => g.length > 0);
}
