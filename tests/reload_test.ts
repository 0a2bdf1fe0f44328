import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer, until } from "./harness.ts";

// spec: The effective config: a settings frame is pushed again to every connection after each
// applied reload; a file that fails to load keeps the last good config.
Deno.test("an edited forge.toml pushes a new settings document to every connection", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const a = await t.connect();
  const b = await t.connect();
  await a.next((m) => m.kind === "greeting");
  const first = (await a.next((m) => m.kind === "settings")).document as { fingerprint: string };
  await b.next((m) => m.kind === "settings");
  await Deno.writeTextFile(
    t.configPath,
    SAMPLE_CONFIG.replace("port = 8790", "port = 8791") + '\n[client]\ntheme = "dark"\n',
  );
  const pa = (await a.next((m) => m.kind === "settings")).document as {
    fingerprint: string;
    areas: { keys: { path: string; value: unknown }[] }[];
  };
  const pb = (await b.next((m) => m.kind === "settings")).document as { fingerprint: string };
  assert(pa.fingerprint !== first.fingerprint);
  assertEquals(pa.fingerprint, pb.fingerprint);
  const port = pa.areas.flatMap((x) => x.keys).find((k) => k.path === "server.port");
  assertEquals(port?.value, 8791);
  const reload = t.log.records.find((r) => r.event === "config_reload") as unknown as {
    changed: Record<string, string[]>;
  };
  assertEquals(reload.changed, { restart: ["server.port"], next_session: ["client.theme"] });
});

Deno.test("a reload that fails keeps the last good config and logs why", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  await Deno.writeTextFile(t.configPath, SAMPLE_CONFIG + "\n[server]\nbogus = 1\n");
  await until(() => t.log.records.some((r) => r.event === "config_reload_failed"));
  const failed = t.log.records.find((r) => r.event === "config_reload_failed") as unknown as {
    why: string;
  };
  assertMatch(failed.why, /failed to parse|invalid/);
  assertEquals(t.server.config.config.server.port, 8790);
  c.send({ kind: "ping" });
  assertEquals((await c.next()).kind, "pong", "no settings frame for a failed reload");
});

// A failed reload is surfaced to connected clients on home's `fatal_error` (the
// settings frame stays the last good document); a good file clears it; and a restart-class key
// whose edit waits for a restart is marked with the value still in force.
Deno.test("a failed reload reaches clients as home's fatal_error; a restart key is marked", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot")).data as { fatal_error: unknown };
  assertEquals(home.fatal_error, null);
  await Deno.writeTextFile(t.configPath, SAMPLE_CONFIG + '\n[client]\ntheme = "dark\n');
  // The fatal_error update itself (a home holder also hears cli_version_changed at boot).
  const update = await c.next((m) =>
    m.kind === "update" && typeof m.update === "object" && m.update !== null &&
    "fatal_error" in m.update
  );
  const fatal = (update.update as { fatal_error: { error: string; message: string } }).fatal_error;
  assertEquals(fatal.error, "config_invalid");
  assertMatch(fatal.message, /failed to parse at line \d+, column \d+: a string is not closed/);
  c.send({ kind: "subscribe", what: "home" });
  // Home's field is the message (a string); the update carries the kind beside it.
  const again = (await c.next((m) => m.kind === "snapshot")).data as { fatal_error: string };
  assertEquals(again.fatal_error, fatal.message);

  await Deno.writeTextFile(t.configPath, SAMPLE_CONFIG.replace("port = 8790", "port = 8791"));
  const cleared = (await c.next((m) => m.kind === "snapshot")).data as { fatal_error: unknown };
  assertEquals(cleared.fatal_error, null);
  const doc = (await c.next((m) => m.kind === "settings")).document as {
    areas: { keys: { path: string; value: unknown; in_force?: unknown }[] }[];
  };
  const keys = doc.areas.flatMap((a) => a.keys);
  const port = keys.find((k) => k.path === "server.port")!;
  assertEquals([port.value, port.in_force], [8791, 8790]);
  assertEquals(keys.find((k) => k.path === "server.bind")!.in_force, undefined);
});
