import { assertEquals } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

const REPO = new URL("..", import.meta.url).pathname;

// The protocol client is how people drive forge: it must print every frame as a JSON line.
Deno.test("deno task client prints every frame as a JSON line, from args or a stdin script", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const run = async (args: string[], stdin?: string) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "client", "--url", t.server.url, "--quiet-ms", "400", ...args],
      cwd: REPO,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    if (stdin !== undefined) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(stdin));
      await w.close();
    }
    const out = await child.output();
    return new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  };
  const kinds = (await run(["subscribe", "home"])).map((m) => m.kind);
  assertEquals(kinds, ["greeting", "settings", "snapshot"]);
  const scripted = await run(
    [],
    '# a script\nping\nsubscribe Acme/proj/lead\ncommand "vault_lock"\n',
  );
  assertEquals(scripted.map((m) => m.kind), ["greeting", "settings", "pong", "snapshot", "error"]);
  assertEquals(scripted[4].what, "dispatch");
});
