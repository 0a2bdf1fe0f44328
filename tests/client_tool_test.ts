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

// `send` sends its text as typed (malformed input can be tried), `--port` names
// the server, and a command sent with nothing subscribed prints the home it acts on.
Deno.test("client: send is raw text, --port dials it, a bare command subscribes home first", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const run = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "client", "--port", String(t.server.addr.port), "--quiet-ms", "400"]
        .concat(args),
      cwd: REPO,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  };
  const raw = await run(["send", "{not json"]);
  assertEquals(raw.map((m) => m.kind), ["greeting", "settings", "error"]);
  assertEquals(raw[2].what, "client_message");
  const bare = await run([
    "command",
    '{"close_session":{"key":{"org":"Acme","project":"proj","label":"lead"}}}',
  ]);
  assertEquals(bare.slice(0, 3).map((m) => m.kind), ["greeting", "settings", "snapshot"]);
  assertEquals(bare[2].subject, "home");
});
