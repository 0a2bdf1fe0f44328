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

// `--validate` checks every frame against protocol/'s schemas: a person sees each mismatch in
// words on stderr and the exit status says there was one.
Deno.test("client --validate names a frame off the schemas and exits 3", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "client", "--url", t.server.url, "--quiet-ms", "800", "--validate"]
      .concat(["subscribe", "home"]),
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const errors = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes('"snapshot"')) seen += (await lines.read()).value ?? "";
  // A frame the schemas refuse: fatal_error's message is words, never a number. (The emit path
  // is typed, so only a cast can send it: this is the drift --validate is there to catch.)
  t.server.workspace.emit(
    {
      name: "fatal_error",
      fields: { error: "config_invalid", message: 7 },
    } as unknown as Parameters<
      typeof t.server.workspace.emit
    >[0],
  );
  while (!(await lines.read()).done) { /* the rest of the frames */ }
  const status = await child.status;
  assertEquals(status.code, 3);
  const said = await errors;
  assertEquals(said.trim().split("\n").filter((l) => l.startsWith("schema: ")).length, 1, said);
  assertEquals(said.includes("update: fatal_error: message"), true, said);
});

// spec: command > reply_to ("required on exactly nine of them"): the client sends a command whose
// outcome rides a reply with its own reply_to and prints the reply; a refusal is said on stderr.
Deno.test("client: a reply command is sent with reply_to and its reply is printed", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "client", "--url", t.server.url, "--quiet-ms", "400"]
      .concat(["command", '{"vault_enrolment_material":{}}']),
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const frames = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(frames.map((m) => m.kind), ["greeting", "settings", "snapshot", "reply"]);
  const reply = frames[3];
  assertEquals(typeof reply.reply_to, "number");
  // This forge runs no vault: the refusal rides the reply as forge's sentence.
  assertEquals(reply.body, "the vault subsystem is turned off by vault.enabled in forge.toml");
  assertEquals(
    new TextDecoder().decode(out.stderr).trim(),
    "forge client: the vault subsystem is turned off by vault.enabled in forge.toml",
  );
});

// spec: The socket > Reaching it: a refused origin is answered 403 before any greeting. The
// client says so in forge's words, not the WebSocket engine's.
Deno.test("client: a refused origin is named, with the key that allows one", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "client", "--url", t.server.url, "--origin", "http://evil.example"]
      .concat(["ping"]),
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 1);
  assertEquals(
    new TextDecoder().decode(out.stderr).trim(),
    "forge client: forge refused the connection (HTTP 403: the page origin is not allowed; " +
      "see [server] allowed_origins)",
  );
});
