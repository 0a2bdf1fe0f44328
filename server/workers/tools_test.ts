// The original forge's agents__update (at least one field; texts non-empty after trim;
// `mcp_families: []` resets to all; never creates a worker) and agents__capacity (cap, live,
// available).
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import type { ProjectConfig } from "../config/types.ts";
import { Refusal, type ToolCall } from "../subsystem.ts";
import type { WorkerRecord } from "./book.ts";
import { workerTools } from "./tools.ts";
import type { Workers } from "./workers.ts";

const project = { org: "Acme", name: "alpha", max_workers: 2 } as ProjectConfig;
const call = {
  seat: { slot: { org: "Acme", project: "alpha", label: "lead" } },
  role: "lead",
  toolUseId: null,
  signal: new AbortController().signal,
} as unknown as ToolCall;

function fake() {
  const updates: [string, Partial<WorkerRecord>][] = [];
  const known = new Set(["w1"]);
  const workers = {
    project: () => project,
    capacity: () => ({ project: "alpha", cap: 2, live: 1, available: 1 }),
    update: (slot: { label: string }, fields: Partial<WorkerRecord>) => {
      if (!known.has(slot.label)) {
        return Promise.reject(new Refusal("agents__update", `no worker \`${slot.label}\``));
      }
      updates.push([slot.label, fields]);
      return Promise.resolve();
    },
  } as unknown as Workers;
  return { tools: workerTools(workers), updates };
}

async function run(name: string, input: unknown) {
  const { tools, updates } = fake();
  try {
    return { ...(await tools[name](input, call)), updates };
  } catch (err) {
    return { text: (err as Error).message, isError: true, updates };
  }
}

Deno.test("agents__update: stored fields replaced, families [] back to all, nothing else", async () => {
  const ok = await run("agents__update", { label: "w1", charter: " New. ", mcp_families: [] });
  assertEquals(JSON.parse(ok.text), { label: "w1", updated: ["charter", "mcp_families"] });
  assertEquals(ok.updates, [["w1", { charter: "New.", mcp_families: null }]]);
  const none = await run("agents__update", { label: "w1" });
  assertMatch(none.text, /name at least one of charter, kick, resume_kick, mcp_families/);
  assertMatch((await run("agents__update", { label: "w1", kick: "  " })).text, /kick is empty/);
  assertMatch((await run("agents__update", { label: "w9", kick: "go" })).text, /no worker `w9`/);
  assertMatch(
    (await run("agents__update", { label: "w1", mcp_families: ["agents"] })).text,
    /always on for every worker/,
  );
});

Deno.test("agents__capacity: cap, live, available and where the cap came from", async () => {
  const res = await run("agents__capacity", {});
  assertEquals(JSON.parse(res.text), {
    project: "alpha",
    cap: 2,
    live: 1,
    available: 1,
    cap_source: "max_workers",
  });
});
