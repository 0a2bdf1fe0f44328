import { assertEquals, assertRejects } from "../tests/assert.ts";
import { claudeTasksPath, forgeTempDir, forgeTempPath } from "./temp_dir.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("forge's temp path is forge-<uid> under TMPDIR, else /tmp", () => {
  assertEquals(forgeTempPath(envOf({}), 1000), "/tmp/forge-1000");
  assertEquals(forgeTempPath(envOf({ TMPDIR: "/var/tmp/" }), 1000), "/var/tmp/forge-1000");
});

Deno.test("the CLI's task output is claude-<uid> under CLAUDE_CODE_TMPDIR, TMPDIR, /tmp", () => {
  assertEquals(claudeTasksPath(envOf({}), 7), "/tmp/claude-7");
  assertEquals(claudeTasksPath(envOf({ TMPDIR: "/t" }), 7), "/t/claude-7");
  assertEquals(
    claudeTasksPath(envOf({ TMPDIR: "/t", CLAUDE_CODE_TMPDIR: "/c" }), 7),
    "/c/claude-7",
  );
});

Deno.test("forge's temp dir is made private, and a file squatting on its path is refused", async () => {
  const base = await Deno.makeTempDir();
  const saved = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", base);
  try {
    const dir = await forgeTempDir();
    assertEquals(dir, `${base}/forge-${Deno.uid()}`);
    assertEquals((await Deno.stat(dir)).mode! & 0o777, 0o700);
    await Deno.remove(dir);
    await Deno.writeTextFile(dir, "not a dir");
    await assertRejects(() => forgeTempDir(), /is not a directory of this user's; remove it$/);
  } finally {
    if (saved === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", saved);
    await Deno.remove(base, { recursive: true });
  }
});
