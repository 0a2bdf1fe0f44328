import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { projectSlug } from "../workspace/claude/paths.ts";
import { listSessions, namesIn } from "./session_list.ts";

const line = (value: Record<string, unknown>) => JSON.stringify(value) + "\n";
const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  line({ type: "user", message: { role: "user", content }, ...extra });
const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("list_sessions: a transcript is called by its /rename title, else the CLI's, else its first prompt", () => {
  const opening = line({ type: "queue-operation", operation: "enqueue", content: "x" }) +
    user("<command-name>/clear</command-name>") +
    user("Caveat: the messages below", { isMeta: true }) +
    user([{ type: "tool_result", content: "ok" }]) +
    user([{ type: "image" }, { type: "text", text: "  Fix the\n  login   page " }]) +
    user("a later prompt");
  assertEquals(namesIn(bytes(opening), new Uint8Array(), true), {
    custom_title: null,
    ai_title: null,
    summary: null,
    first_prompt: "Fix the login page",
  });
  const titled = opening + line({ type: "summary", summary: "Login page fix" }) +
    line({ type: "ai-title", aiTitle: "Fixing login" }) +
    line({ type: "custom-title", customTitle: "first" }) + "{torn\n" +
    line({ type: "custom-title", customTitle: "login work" });
  assertEquals(namesIn(bytes(titled), new Uint8Array(), true), {
    custom_title: "login work",
    ai_title: "Fixing login",
    summary: "Login page fix",
    first_prompt: "Fix the login page",
  });
  // A long prompt is cut to a row's name.
  const long = namesIn(bytes(user("y".repeat(500))), new Uint8Array(), true).first_prompt!;
  assertEquals([long.length, long.endsWith("…")], [200, true]);
});

Deno.test("list_sessions: only a long transcript's ends are read, and a line either end cuts is not", () => {
  const head = bytes(user("the first prompt") + user("cut off here, mid-li"));
  const tail = bytes('ne"}}\n' + line({ type: "custom-title", customTitle: "the title" }));
  assertEquals(namesIn(head, tail, false), {
    custom_title: "the title",
    ai_title: null,
    summary: null,
    first_prompt: "the first prompt",
  });
});

Deno.test("list_sessions: a project's transcripts newest first, each named, a 10 MB one by its last line", async () => {
  const root = await Deno.makeTempDir({ prefix: "session_list_" });
  try {
    const work = join(root, "work");
    await Deno.mkdir(work);
    const folder = join(root, "claude", "projects", projectSlug(await Deno.realPath(work)));
    await Deno.mkdir(folder, { recursive: true });
    const long = user("the long one") + line({ type: "assistant", pad: "z".repeat(10 << 20) }) +
      line({ type: "custom-title", customTitle: "renamed at the end" });
    await Deno.writeTextFile(join(folder, "older.jsonl"), user("an older prompt"));
    await Deno.utime(join(folder, "older.jsonl"), 1_000, 1_000);
    await Deno.writeTextFile(join(folder, "long.jsonl"), long);
    await Deno.writeTextFile(join(folder, "empty.jsonl"), "");
    await Deno.utime(join(folder, "empty.jsonl"), 500, 500);
    const project = { name: "app", org: "Acme", path: work } as ProjectConfig;
    const config = {
      orgs: [{ name: "Acme", accounts: ["a"], fallback_accounts: [], projects: [project] }],
      accounts: [{ display_name: "a", config_dir: join(root, "claude") }],
    } as unknown as ForgeConfig;
    const listed = await listSessions(config, project);
    assertEquals(
      listed.map((s) => [s.session_id, s.summary, s.custom_title, s.first_prompt]),
      [
        ["long", "renamed at the end", "renamed at the end", "the long one"],
        ["older", "an older prompt", null, "an older prompt"],
        ["empty", "", null, null],
      ],
    );
    assertEquals(listed[1].last_modified_ms, 1_000_000);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
