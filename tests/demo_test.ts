// Spawned tier. `tools/deno.sh task demo` runs forge with the scripted fake model
// and a demo project, so anyone can watch a seat work without an account. This runs it as
// docs/quickstart.md says (with --port 0 so it cannot collide, and --once so it ends after the
// first turn).
import { assert, assertEquals, assertMatch } from "./assert.ts";

const REPO = new URL("..", import.meta.url).pathname;

Deno.test("task demo: a real seat reads the demo project and answers the prompt", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "demo", "--port", "0", "--once"],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert(out.success, `demo failed: ${text}\n${new TextDecoder().decode(out.stderr)}`);
  assertMatch(text, /demo: lead uses Read \{"file_path":"[^"]*\/hello\/README\.md"\}/);
  assertMatch(text, /demo: tool result: .*# hello/);
  assertMatch(text, /demo: lead: This is the demo project/);
  assertMatch(text, /demo: turn finished: success/);
  const dir = /config (\S+)\/forge\/forge\.toml/.exec(text)![1];
  const left = await Deno.stat(dir).then(() => true, () => false);
  assert(!left, `the demo left ${dir} behind`);
});

Deno.test("task demo on a taken port prints forge's own sentence and leaves no temp dir", async () => {
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const tmp = await Deno.makeTempDir({ prefix: "forge-demo-tmp-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "demo", "--port", String(held.addr.port), "--once"],
      cwd: REPO,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // The demo's temp dir is made under TMPDIR: this one, so the test sees what is left.
      env: { TMPDIR: tmp },
    }).output();
    const err = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 1, err);
    assertMatch(err, /demo: forge exited before it was listening; its stderr ends:\n/);
    assertMatch(
      err,
      new RegExp(`\\(the listen phase\\): 127\\.0\\.0\\.1:${held.addr.port} is taken`),
    );
    assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), [], "the demo left its dir");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
