/**
 * Agent-tools bench: a forge tool call's round trip beside a bare control_request
 * echo on the same CLI, with 1 and 10 seats at once.
 *
 *   tools/deno.sh run --allow-all tools/bench/mcp.ts [--calls 40] [--seats 1,10]
 *
 * Each seat is the real `claude` CLI, launched with forge's MCP flags and its sdk server (the
 * seat's own code path, seats/occupant.ts), against its own in-process fake Messages API
 * scripted to call `mcp__forge__bench__echo` --calls times in one turn. Arms, paired and
 * interleaved on every seat:
 *   tools/call  - the CLI's `assistant` tool_use frame to its `user` tool_result frame, as forge
 *                 reads them on stdout: the CLI's MCP machinery, the control protocol both
 *                 ways and forge's answer;
 *   forge part  - inside that, forge's own handling of the `tools/call` mcp_message (parse,
 *                 validate, handler, reply);
 *   echo        - right after each result, a bare `mcp_status` control_request from forge and
 *                 its control_response: the pipes and the CLI's control loop alone.
 * The first 3 calls of each seat are warm-up and dropped. Medians, p99 and ranges in ms.
 */
import { z } from "zod";
import { type ScriptInput, startFakeApi } from "../../fixtures/fake_api/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import { buildArgv, buildChildEnv, defaultClaudeBin } from "../../server/workspace/claude/mod.ts";
import type { ToolEntry } from "../../server/workspace/mcp/catalog.ts";
import { ToolBridge } from "../../server/workspace/mcp/bridge.ts";
import { spawnOccupant } from "../../server/workspace/seats/occupant.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { stringFlag } from "./support/flags.ts";

const CALLS = Number(stringFlag("--calls", "40"));
const SEATS = stringFlag("--seats", "1,10").split(",").map(Number);
const WARM = 3;
const PAYLOAD = "x".repeat(64);

const echoTool: ToolEntry = {
  subsystem: "bench",
  spec: {
    name: "bench__echo",
    family: "bench",
    description: "Echoes its text.",
    input: z.object({ text: z.string() }).strict(),
    roles: ["lead"],
    readOnly: true,
  },
  handler: (input) => Promise.resolve({ text: (input as { text: string }).text }),
};

interface Samples {
  call: number[];
  forge: number[];
  echo: number[];
  bytes: number;
}

async function runSeat(dir: string, n: number, out: Samples): Promise<void> {
  const script: ScriptInput = {
    replies: [
      ...Array.from({ length: CALLS }, () => ({
        content: [{
          type: "tool_use" as const,
          name: "mcp__forge__bench__echo",
          input: { text: PAYLOAD },
        }],
      })),
      { content: [{ type: "text" as const, text: "done" }] },
    ],
  };
  const api = await startFakeApi(script);
  const cwd = `${dir}/seat${n}`;
  await Deno.mkdir(cwd, { recursive: true });
  const bridge = new ToolBridge(() => [echoTool], memoryLogger());
  const { env } = buildChildEnv({
    inherited: Deno.env.toObject(),
    globalEnv: {
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "sk-bench",
      CLAUDE_CODE_MAX_RETRIES: "0",
      HOME: `${dir}/home`,
    },
    configDir: `${dir}/claude${n}`,
    cwd,
  });
  const seat: SeatInfo = {
    slot: { org: "bench", project: `p${n}`, label: "lead" },
    project: {} as SeatInfo["project"],
    cwd,
    sessionId: () => null,
  };
  const { proc, tools } = spawnOccupant(
    {
      bin: defaultClaudeBin(),
      args: buildArgv({ sessionId: crypto.randomUUID(), extraArgs: bridge.launchArgs() }),
      cwd,
      env,
    },
    seat,
    bridge,
  );
  let seen = 0;
  const server = tools!.server;
  const handle = server.handle.bind(server);
  server.handle = async (request) => {
    const t = performance.now();
    const answer = await handle(request);
    const msg = request.message as { method?: string } | undefined;
    if (msg?.method === "tools/call" && seen >= WARM) out.forge.push(performance.now() - t);
    return answer;
  };
  await proc.initialize({}, 60_000);
  proc.sendUserMessage("go");
  const started = new Map<string, number>();
  for await (const event of proc.events()) {
    if (event.kind !== "frame") continue;
    const f = event.frame as Record<string, unknown>;
    const content = (f.message as { content?: unknown } | undefined)?.content;
    if (f.type === "assistant" && Array.isArray(content)) {
      for (const b of content) if (b.type === "tool_use") started.set(b.id, performance.now());
    } else if (f.type === "user" && Array.isArray(content)) {
      for (const b of content) {
        const t0 = started.get(b.tool_use_id);
        if (b.type !== "tool_result" || t0 === undefined) continue;
        const ms = performance.now() - t0;
        const e0 = performance.now();
        await proc.request("mcp_status");
        const echo = performance.now() - e0;
        if (++seen > WARM) {
          out.call.push(ms);
          out.echo.push(echo);
          out.bytes += JSON.stringify(b.content).length;
        }
      }
    } else if (f.type === "result") break;
  }
  await proc.close();
  await api.close();
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  const f = (x: number) => x.toFixed(2);
  return `p50 ${f(q(0.5))}  p99 ${f(q(0.99))}  range ${f(s[0])}..${f(s.at(-1)!)}  (n=${s.length})`;
}

for (const seats of SEATS) {
  const dir = await Deno.makeTempDir({ prefix: "forge-mcp-bench-" });
  const out: Samples = { call: [], forge: [], echo: [], bytes: 0 };
  await Promise.all(Array.from({ length: seats }, (_, i) => runSeat(dir, i, out)));
  console.log(`${seats} seat(s), ${CALLS} calls each (${WARM} warm-up dropped), ms:`);
  console.log(`  tools/call round trip  ${stats(out.call)}`);
  console.log(`  forge's part of it     ${stats(out.forge)}`);
  console.log(`  bare control echo      ${stats(out.echo)}`);
  console.log(
    `  moved: ${out.call.length} tool results (${out.bytes} bytes of content), ${out.echo.length} mcp_status answers`,
  );
  await Deno.remove(dir, { recursive: true });
}
