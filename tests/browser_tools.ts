/**
 * The browser subsystem with its tools, on a REAL Chromium, for tests and benches that call the
 * agent's tools directly (no seat, no CLI): a host that reads one forge.toml, a tool runner per
 * seat label, and the subsystem's own handlers for viewers.
 */
import { browserConfig } from "./browser_harness.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { loadConfigText } from "../server/config/load.ts";
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import { catalogueAreas } from "../server/registry.ts";
import type { Host, ToolCall, ToolHandler, ToolResult } from "../server/subsystem.ts";
import type { SeatInfo } from "../server/workspace/workspace.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { create } from "../subsystems/browser/mod.ts";
import { BROWSER_TOOLS } from "../subsystems/browser/tool_specs.ts";
import { parseInput } from "../server/workspace/mcp/catalog.ts";

export interface BrowserTools extends AsyncDisposable {
  /**
   * Calls `browser_<verb>` as the seat `Acme/proj/<label>` (lead by default), its input parsed
   * against the tool's schema first as the MCP bridge parses it (a bad input is its error).
   */
  run(verb: string, input: Record<string, unknown>, label?: string): Promise<ToolResult>;
  /** The subsystem's handlers: its viewer verbs, its update hook. */
  browser: ReturnType<typeof create>;
  /** The host's log, kept in memory. */
  log: ReturnType<typeof memoryLogger>;
  /** The state directory (also the seats' working directory). */
  dir: string;
}

/**
 * Calls `browser_<verb>` from `tools` with its input parsed against the tool's schema first, as
 * the MCP bridge parses it (server/workspace/mcp/catalog.ts): a bad input is its error result.
 */
export function runTool(
  tools: Record<string, ToolHandler>,
  verb: string,
  input: Record<string, unknown>,
  call: ToolCall,
): Promise<ToolResult> {
  const name = `browser_${verb}`;
  const spec = BROWSER_TOOLS.find((t) => t.name === name);
  if (!spec) throw new Error(`no browser tool ${name}`);
  const parsed = parseInput(spec, input);
  if (!parsed.ok) return Promise.resolve({ text: parsed.why, isError: true });
  return tools[name](parsed.input, call);
}

/** Starts the browser subsystem over a fresh state directory; `[browser]` keys may be added. */
export async function browserTools(browserKeys = ""): Promise<BrowserTools> {
  const dir = await Deno.makeTempDir({ prefix: "forge-browser-tools-" });
  const { config } = loadConfigText(
    browserConfig("/tmp", browserKeys),
    `${dir}/forge.toml`,
    catalogueAreas(CORE_AREAS, SUBSYSTEMS),
  );
  const log = memoryLogger();
  const host = {
    log,
    config: () => config,
    stateDir: dir,
    state: new StateKeeper(log),
  } as unknown as Host;
  const browser = create(host);
  const tools = browser.tools as Record<string, ToolHandler>;
  const call = (label: string): ToolCall => ({
    seat: { slot: { org: "Acme", project: "proj", label }, cwd: dir } as SeatInfo,
    role: label === "lead" ? "lead" : "worker",
    toolUseId: null,
    signal: new AbortController().signal,
  });
  return {
    run: (verb, input, label = "lead") => runTool(tools, verb, input, call(label)),
    browser,
    log,
    dir,
    async [Symbol.asyncDispose]() {
      await browser.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The yaml of a page answer (`### Snapshot` then a yaml block), or the test fails. */
export function yamlOf(answer: string): string {
  const m = /### Snapshot\n```yaml\n([\s\S]*?)\n```/.exec(answer);
  if (!m) throw new Error(`no snapshot in the answer:\n${answer}`);
  return m[1];
}

/** The ref on the first snapshot line matching `line` (its first group is the ref). */
export function refIn(answer: string, line: RegExp): string {
  const m = line.exec(answer);
  if (!m) throw new Error(`no line matches ${line} in:\n${answer}`);
  return m[1];
}
