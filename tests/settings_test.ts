import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

const COMMENTED = "# forge, by hand\n" +
  SAMPLE_CONFIG.replace("[server]", "# the socket\n[server]") + "\n# trailing words\n";

async function fingerprintOf(
  c: { next: (p: (m: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>> },
) {
  const s = await c.next((m) => m.kind === "settings");
  return (s.document as { fingerprint: string }).fingerprint;
}

// spec: Editing the config: settings_saved, then the reload push to every client; comments kept.
Deno.test("settings_edit saves, answers settings_saved, and every connection gets the new document", async () => {
  await using t = await testServer(COMMENTED);
  const a = await t.connect();
  const b = await t.connect();
  const fp = await fingerprintOf(a);
  await fingerprintOf(b);
  a.send({
    kind: "settings_edit",
    fingerprint: fp,
    id: 7,
    edits: [{
      area: "server",
      key_path: "server.port",
      pattern: "server.port",
      op: "set",
      value: 8791,
    }],
  });
  assertEquals(await a.next((m) => m.kind === "settings_saved" || m.kind === "settings_refused"), {
    kind: "settings_saved",
    id: 7,
  });
  for (const c of [a, b]) {
    const doc = (await c.next((m) => m.kind === "settings")).document as {
      fingerprint: string;
      areas: { keys: { path: string; value: unknown }[] }[];
    };
    assert(doc.fingerprint !== fp);
    assertEquals(
      doc.areas.flatMap((x) => x.keys).find((k) => k.path === "server.port")?.value,
      8791,
    );
  }
  const text = await Deno.readTextFile(t.configPath);
  assertEquals(text, COMMENTED.replace("port = 8790", "port = 8791"), "only the edited line moved");
});

Deno.test("settings_edit refusals: stale, invalid with the loader's words, refused by a guard, io", async () => {
  await using t = await testServer(COMMENTED);
  const c = await t.connect();
  const fp = await fingerprintOf(c);
  const edit = (id: number, fingerprint: string, edits: unknown[]) =>
    c.sendUntyped({ kind: "settings_edit", fingerprint, id, edits });
  const answer = (id: number) =>
    c.next((m) => (m.kind === "settings_refused" || m.kind === "settings_saved") && m.id === id);

  edit(1, "0000000000000000", [{
    area: "server",
    key_path: "server.port",
    pattern: "server.port",
    op: "set",
    value: 9000,
  }]);
  assertEquals((await answer(1)).reason, "stale");

  edit(2, fp, [{
    area: "server",
    key_path: "server.port",
    pattern: "server.port",
    op: "set",
    value: 0,
  }]);
  const invalid = await answer(2);
  assertEquals([invalid.reason, invalid.key_path], ["invalid", "server.port"]);
  assertMatch(String(invalid.message), /line \d+, column \d+ in `server`: `port` must be/);

  edit(3, fp, [{ area: "orgs", key_path: "orgs.Acme", pattern: "", op: "remove" }]);
  const refused = await answer(3);
  assertEquals(refused.reason, "refused");
  assertMatch(String(refused.message), /org `Acme` still has projects \(proj\)/);

  await Deno.remove(t.configPath);
  await Deno.mkdir(t.configPath);
  edit(4, fp, [{
    area: "server",
    key_path: "server.port",
    pattern: "server.port",
    op: "set",
    value: 9001,
  }]);
  assertEquals((await answer(4)).reason, "io");
  await Deno.remove(t.configPath);
});

// spec: Editing the config: "value is its new value in the edit.kind's shape". The wire takes any
// kind's shape; the server holds each value to its own key's kind and names both.
Deno.test("settings_edit: a value off its key's kind is refused naming the key and the kind", async () => {
  await using t = await testServer(COMMENTED);
  const c = await t.connect();
  const fp = await fingerprintOf(c);
  const set = (id: number, value: unknown) =>
    c.sendUntyped({
      kind: "settings_edit",
      fingerprint: fp,
      id,
      edits: [{
        area: "server",
        key_path: "server.port",
        pattern: "server.port",
        op: "set",
        value,
      }],
    });
  set(1, "8791");
  const off = await c.next((m) => m.kind === "settings_refused" && m.id === 1);
  assertEquals([off.reason, off.key_path], ["invalid", "server.port"]);
  assertEquals(
    off.message,
    'settings edit set server.port: a number key must be a number, not a string ("8791")',
  );
  assertEquals(await Deno.readTextFile(t.configPath), COMMENTED, "nothing was written");
  // A value no kind has (a list of tables) is the envelope's refusal, naming the field.
  set(2, [{ port: 1 }]);
  const e = await c.next((m) => m.kind === "error");
  assertEquals(e.what, "settings_edit");
  assertMatch(String(e.why), /edits\.0\.value/);
});
