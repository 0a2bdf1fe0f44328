// The original forge's family selection: a worker's `mcp_families` withholds the selectable
// families it did not pick; agents, browser and forge's other families stay on; a lead (no
// selection) lists them all.
import { z } from "zod";
import { assertEquals } from "../../tests/assert.ts";
import { memoryLogger } from "../log.ts";
import type { SeatInfo } from "../workspace/workspace.ts";
import { SeatToolServer, type ToolEntry } from "../workspace/mcp/mod.ts";

const tool = (name: string, family: string): ToolEntry => ({
  subsystem: "test",
  spec: { name, family, description: name, input: z.object({}), roles: ["lead", "worker"] },
  handler: () => Promise.resolve({ text: "" }),
});
const TOOLS = [
  tool("agents__list", "agents"),
  tool("browser_open", "browser"),
  tool("settings__get", "settings"),
  tool("tasks__list", "tasks"),
  tool("cron__list", "cron"),
  tool("review__read", "review"),
];

function names(label: string, families: readonly string[] | null): string[] {
  const seat: SeatInfo = {
    slot: { org: "Acme", project: "alpha", label },
    project: {} as SeatInfo["project"],
    cwd: "/tmp",
    sessionId: () => null,
    toolFamilies: () => families,
  };
  return new SeatToolServer(seat, () => TOOLS, memoryLogger()).current().map((t) => t.spec.name);
}

Deno.test("a worker given review lists review and the always-on families, not tasks or cron", () => {
  assertEquals(names("w1", ["review"]), [
    "agents__list",
    "browser_open",
    "settings__get",
    "review__read",
  ]);
});

Deno.test("no selection (null) is every family, for a worker and a lead alike", () => {
  assertEquals(names("w1", null).length, TOOLS.length);
  assertEquals(names("lead", null).length, TOOLS.length);
});
