import { encodeTerminalInput } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { SAMPLE_CONFIG } from "./harness.ts";
import { spawnForge } from "./spawned.ts";

// The spawned tier: `deno task start` as a process, talked to as a client would.

Deno.test("deno task start serves /socket: greeting, settings, home; SIGTERM ends it cleanly", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await forge.connect();
  assertEquals((await c.next()).kind, "greeting");
  const settings = await c.next();
  assertEquals((settings.document as { source: string }).source, forge.configPath);
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next()).data as { projects: { project: { name: string } }[] };
  assertEquals(home.projects.map((p) => p.project.name), ["proj"]);
  const status = await forge.stop();
  assertEquals(status.code, 0);
  const log = await Deno.readTextFile(`${forge.dir}/forge.log`);
  assert(log.includes('"event":"server_listening"'));
});

Deno.test("spawned: a lookalike origin gets 403 and the log names it", async () => {
  await using forge = await spawnForge(null);
  const res = await fetch(`http://127.0.0.1:${forge.port}/socket`, {
    headers: {
      origin: "http://localhost.evil.com",
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-version": "13",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
    },
  });
  await res.body?.cancel();
  assertEquals(res.status, 403);
  await forge.stop();
  const log = await Deno.readTextFile(`${forge.dir}/forge.log`);
  assert(log.includes('"event":"socket_origin_refused","origin":"http://localhost.evil.com"'));
});

Deno.test("spawned: an edit to forge.toml reaches two connections as a settings push", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const a = await forge.connect();
  const b = await forge.connect();
  for (const c of [a, b]) {
    await c.next((m) => m.kind === "greeting");
    await c.next((m) => m.kind === "settings");
  }
  await Deno.writeTextFile(forge.configPath, SAMPLE_CONFIG + "\n[documents]\nmax_size_mib = 3\n");
  for (const c of [a, b]) {
    const doc = (await c.next((m) => m.kind === "settings", 15_000)).document as {
      areas: { keys: { path: string; value: unknown }[] }[];
    };
    assertEquals(
      doc.areas.flatMap((x) => x.keys).find((k) => k.path === "documents.max_size_mib")?.value,
      3,
    );
  }
});

Deno.test("spawned: a config that fails to load stops the boot with the loader's own words", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/forge.toml`, "[server]\nporty = 1\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "start", "--config", `${dir}/forge.toml`],
      cwd: new URL("..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 1);
    const err = new TextDecoder().decode(out.stderr);
    assert(err.includes("line 2, column 1 in `server`: unknown key `porty`"), err);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spawned: under the scoped permissions (terminal off) the server reads its project's tree", async () => {
  const project = await Deno.makeTempDir();
  try {
    const git = (...args: string[]) =>
      new Deno.Command("git", { args: ["-C", project, ...args], stdout: "null", stderr: "null" })
        .output();
    await git("init", "-q", "-b", "main");
    await Deno.writeTextFile(`${project}/a.txt`, "a\n");
    const config = SAMPLE_CONFIG.replace("/nonexistent/forge-test-project", project) +
      "\n[terminal]\nenabled = false\n";
    await using forge = await spawnForge(config);
    const c = await forge.connect();
    c.send({ kind: "subscribe", what: "home" });
    const home = (await c.next((m) => m.kind === "snapshot")).data as {
      projects: { work: { gate: string; changed: number } }[];
    };
    assertEquals([home.projects[0].work.gate, home.projects[0].work.changed], ["in_repo", 1]);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});

// Under the launcher's permissions Deno refuses /proc: the terminal's session kill goes through ps
// and kill, and must still leave nothing behind. spec: terminal_close.
Deno.test("spawned: terminal_close under the launcher's permissions leaves no process behind", async () => {
  const project = await Deno.makeTempDir();
  try {
    await using forge = await spawnForge(
      SAMPLE_CONFIG.replace("/nonexistent/forge-test-project", project),
    );
    const c = await forge.connect();
    const seat = { org: "Acme", project: "proj", label: "lead" };
    c.send({ kind: "terminal_view", seat, reply_to: 1 });
    const id = ((await c.next((m) => m.kind === "reply")).body as { id: number }).id;
    c.send({ kind: "terminal_control", seat, id, take: true });
    await c.next((m) => m.kind === "terminal_control");
    const marker = 4000 + Math.floor(Math.random() * 1000);
    c.sendBinary(
      encodeTerminalInput(
        id,
        new TextEncoder().encode(`sleep ${marker}17 & nohup sleep ${marker}18 >/dev/null 2>&1 &\r`),
      ),
    );
    const alive = async () => {
      const out = await new Deno.Command("ps", { args: ["-eo", "args="], stdout: "piped" })
        .output();
      return new TextDecoder().decode(out.stdout).split("\n").filter((l) =>
        l.includes(`sleep ${marker}1`)
      ).length;
    };
    const deadline = performance.now() + 10_000;
    while ((await alive()) < 2) {
      if (performance.now() > deadline) throw new Error("the background sleeps never started");
      await new Promise((r) => setTimeout(r, 50));
    }
    c.send({ kind: "terminal_close", seat, id });
    c.send({ kind: "ping" });
    await c.next((m) => m.kind === "pong" || m.kind === "error");
    const end = performance.now() + 5_000;
    while ((await alive()) > 0 && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assertEquals(await alive(), 0);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
