// Tools are contributed through the registry: a manifest declares each tool (name
// `<family>__<verb>`, or `<family>_<verb>` for an upstream-named family; family; roles); one
// handler per declared tool, checked at boot; an off subsystem offers none, a reload switching it
// off takes its tools away, and a tool's own `when` gates it on the config in force.
import { z } from "zod";
import { assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { ForgeConfig } from "../../config/types.ts";
import { memoryLogger } from "../../log.ts";
import { Registry } from "../../registry.ts";
import { type Host, toolName, type ToolSpec } from "../../subsystem.ts";
import { testManifest } from "../../../tests/registry_fakes.ts";
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

Deno.test("a tool declared without its name, family or roles is named, not read", () => {
  const nameless = { family: "demo", roles: ["lead"] } as unknown as ToolSpec;
  assertEquals(
    toolDeclarationProblem([nameless], new Set()),
    "a tool is declared without its name",
  );
  const bare = { name: "demo__run" } as unknown as ToolSpec;
  assertEquals(
    toolDeclarationProblem([bare], new Set()),
    "tool `demo__run` is declared without its family, roles",
  );
});

Deno.test("an upstream-named family is <family>_<verb>, and names every tool that way", () => {
  const up = (name: string): ToolSpec => ({ ...spec(name, "browser"), naming: "upstream" });
  assertEquals(
    toolDeclarationProblem([up("browser_navigate"), up("browser_run_code")], new Set()),
    null,
  );
  assertEquals(toolName("browser", "navigate", "upstream"), "browser_navigate");
  assertEquals(toolName("vault", "read"), "vault__read");
  assertMatch(
    toolDeclarationProblem([up("browser__navigate")], new Set())!,
    /`browser__navigate` is not named <family>_<verb>/,
  );
  assertMatch(
    toolDeclarationProblem([up("page_navigate")], new Set())!,
    /declared in family `browser`, not `page`/,
  );
  assertMatch(
    toolDeclarationProblem([up("browser_navigate"), spec("browser__close", "browser")], new Set())!,
    /family `browser` names its tools two ways \(upstream and forge\)/,
  );
});

/** A switched subsystem declaring `tools`, whose start offers `handlers` for tools. */
function manifest(id: string, tools: ToolSpec[], handlers: Record<string, unknown>) {
  return testManifest(id, { switch: `${id}.enabled`, tools }, () => ({
    tools: handlers as Record<string, () => Promise<{ text: string }>>,
  }));
}

/** A host whose config is whatever `config` reads now. */
const hostReading = (config: () => ForgeConfig) =>
  ({ log: memoryLogger(), config, workspace: { setFatal: () => {} } }) as unknown as Host;

Deno.test("the registry: one handler per declared tool; an off subsystem offers none", async () => {
  let config = {
    server: { subsystem_start_secs: 60 },
    areas: { good: { enabled: true }, missing: { enabled: true }, extra: { enabled: true } },
  } as unknown as ForgeConfig;
  const host = hostReading(() => config);
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

Deno.test("a tool's `when` offers it only while it holds under the config in force", async () => {
  let config = {
    server: { subsystem_start_secs: 60 },
    areas: { gated: { enabled: true, risky: false } },
  } as unknown as ForgeConfig;
  const host = hostReading(() => config);
  const ok = () => Promise.resolve({ text: "ok" });
  const risky: ToolSpec = {
    ...spec("gated__risky", "gated"),
    when: (c) => c.areas.gated?.risky === true,
  };
  const registry = new Registry([
    manifest("gated", [spec("gated__safe", "gated"), risky], {
      gated__safe: ok,
      gated__risky: ok,
    }),
  ]);
  await registry.boot(host);
  assertEquals(registry.tools(config).map((t) => t.spec.name), ["gated__safe"]);
  config = { areas: { gated: { enabled: true, risky: true } } } as unknown as ForgeConfig;
  assertEquals(registry.tools(config).map((t) => t.spec.name), ["gated__safe", "gated__risky"]);
});
