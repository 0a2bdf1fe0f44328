// Tools are contributed through the registry: a manifest declares each tool (name
// `<family>__<verb>`, family, roles); one handler per declared tool, checked at boot; an off
// subsystem offers none, a reload switching it off takes its tools away.
import { z } from "zod";
import { assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { ForgeConfig } from "../../config/types.ts";
import { memoryLogger } from "../../log.ts";
import { Registry } from "../../registry.ts";
import { defineSubsystem, type Host, type ToolSpec } from "../../subsystem.ts";
import { toolDeclarationProblem } from "./catalog.ts";

const spec = (name: string, family = "demo"): ToolSpec => ({
  name,
  family,
  description: "a tool",
  input: z.object({}),
  roles: ["lead"],
});

Deno.test("tool declarations: <family>__<verb>, its own family, declared once, some role", () => {
  assertEquals(toolDeclarationProblem([spec("demo__run")], new Set()), null);
  assertMatch(toolDeclarationProblem([spec("run")], new Set())!, /is not named <family>__<verb>/);
  assertMatch(
    toolDeclarationProblem([spec("other__run")], new Set())!,
    /declared in family `demo`, not `other`/,
  );
  assertMatch(toolDeclarationProblem([spec("demo__run")], new Set(["demo__run"]))!, /twice/);
  assertMatch(
    toolDeclarationProblem([{ ...spec("demo__run"), roles: [] }], new Set())!,
    /names no role/,
  );
});

function manifest(id: string, tools: ToolSpec[], handlers: Record<string, unknown>) {
  return defineSubsystem({
    id,
    note: "test",
    switch: `${id}.enabled`,
    area: null,
    verbs: [],
    commands: [],
    subjects: [],
    binary: [],
    tools,
    load: () =>
      Promise.resolve({
        create: () => ({
          verbs: {},
          commands: {},
          subjects: {},
          tools: handlers as Record<string, () => Promise<{ text: string }>>,
        }),
      }),
  });
}

Deno.test("the registry: one handler per declared tool; an off subsystem offers none", async () => {
  let config = {
    areas: { good: { enabled: true }, missing: { enabled: true }, extra: { enabled: true } },
  } as unknown as ForgeConfig;
  const host = {
    log: memoryLogger(),
    config: () => config,
    workspace: { setFatal: () => {} },
  } as unknown as Host;
  const ok = () => Promise.resolve({ text: "ok" });
  const registry = new Registry([
    manifest("good", [spec("good__run", "good")], { good__run: ok }),
    manifest("missing", [spec("missing__run", "missing")], {}),
    manifest("extra", [], { extra__run: ok }),
  ]);
  await registry.boot(host);
  const states = Object.fromEntries(registry.states().map((s) => [s.id, s.why]));
  assertEquals(states.good, null);
  assertMatch(states.missing!, /declares missing__run but has no handler for them/);
  assertMatch(states.extra!, /has handlers for undeclared tools extra__run/);
  assertEquals(registry.tools(config).map((t) => t.spec.name), ["good__run"]);
  config = { areas: { good: { enabled: false } } } as unknown as ForgeConfig;
  assertEquals(registry.tools(config), [], "a reload that switched it off took its tools");
});
