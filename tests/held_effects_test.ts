// Spawned tier, real CLI + fake API (fixtures/mcp/script.json): a held ask resolves after its
// effect. settings_write_resolved goes out once forge.toml holds the batch and forge reloaded
// it, so a client reading the file the moment the frame arrives finds the new value; a write that
// fails after the person approved resolves with the failure in words. spec: Editing the config
// (settings__set parks as settings_write_pending; settings_write_resolved names the ending).
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { MCP_SCRIPT, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";

Deno.test("settings_write_resolved: the file holds the value when it arrives; a failed write is named", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const person = await forge.ready();
  await subscribeSeat(person, lead, true);
  const pending = async () =>
    typedUpdateOf(
      await person.next((m) => !!updateOf(m, "settings_write_pending"), 60_000),
      "settings_write_pending",
    )!;

  // --- approved: the frame arrives after the write and the reload ---------------------------
  command(person, "prompt", { key: lead, text: "[[script:set1]] set the mark", attachments: [] });
  const ask = await pending();
  command(person, "respond_settings_write", { key: lead, id: ask.id, approved: true });
  let onDisk = "";
  const resolved = await person.next((m) => {
    if (!updateOf(m, "settings_write_resolved")) return false;
    onDisk = Deno.readTextFileSync(world.configPath); // read the moment it arrives
    return true;
  }, 30_000);
  assertMatch(onDisk, /\[client\]\nmark = "klin"\n/);
  assertEquals(updateOf(resolved, "settings_write_resolved"), {
    key: lead,
    id: ask.id,
    ending: "answered",
    failure: null,
  });
  const at = person.frames.findIndex((f) => f.type === "json" && f.data === resolved);
  const reload = person.frames.findIndex((f) =>
    f.type === "json" && f.data.kind === "settings" && JSON.stringify(f.data).includes('"klin"')
  );
  assert(reload !== -1 && reload < at, "the reload's settings push came before the resolve");
  await untilResult(person);

  // --- approved, but forge.toml was made read-only meanwhile: the failure is named ----------
  command(person, "prompt", { key: lead, text: "[[script:set2]] set it again", attachments: [] });
  const ask2 = await pending();
  await Deno.chmod(world.configPath, 0o444);
  try {
    command(person, "respond_settings_write", { key: lead, id: ask2.id, approved: true });
    const failed = updateOf(
      await person.next((m) => !!updateOf(m, "settings_write_resolved"), 30_000),
      "settings_write_resolved",
    )!;
    assertEquals([failed.id, failed.ending], [ask2.id, "answered"]);
    assertMatch(
      String(failed.failure),
      /^settings__set: the person approved, but the write was refused \(io\): .*forge\.toml is read-only \(mode 0444\): make it writable to save\. Nothing was written\.$/,
    );
    const turn = await untilResult(person);
    assertEquals(toolResultsOf(turn)[0], { text: String(failed.failure), isError: true });
    assertEquals(Deno.readTextFileSync(world.configPath), onDisk, "nothing was written");
  } finally {
    await Deno.chmod(world.configPath, 0o644);
  }
});
