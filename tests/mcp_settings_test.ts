// Spawned tier, real CLI + fake API calling forge's settings tools (the settings
// family). spec: Editing the config (settings__set / settings__unset park as
// settings_write_pending; respond_settings_write; the batch validated before the prompt is
// minted; approval writes through the save path and the reload push follows; declining writes
// nothing; settings_write_resolved names the ending); subscribe > answering; session >
// pending_asks, pending_ask; home > agents[].pending.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { MCP_SCRIPT, type Msg, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";

Deno.test("settings__set: parks, approve writes losslessly and reloads everyone; decline, invalid, interrupt, reconnect", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const answerer = await forge.ready();
  const reader = await forge.ready();
  await subscribeSeat(answerer, lead, true);
  await subscribeSeat(reader, lead, false);
  const original = await Deno.readTextFile(world.configPath);
  const prompt = (text: string) =>
    command(answerer, "prompt", { key: lead, text, attachments: [] });
  const pending = async () =>
    typedUpdateOf(
      await answerer.next((m) => !!updateOf(m, "settings_write_pending"), 60_000),
      "settings_write_pending",
    )!;
  const resolved = async () =>
    updateOf(
      await answerer.next((m) => !!updateOf(m, "settings_write_resolved"), 30_000),
      "settings_write_resolved",
    )!;
  const respond = (c: typeof answerer, id: string, approved: boolean) =>
    command(c, "respond_settings_write", { key: lead, id, approved });

  // --- 1. approve: every key with its value now and after; a reader's answer is refused -------
  prompt("[[script:set1]] set the mark");
  const ask = await pending();
  assertEquals(ask.keys, [{
    path: "client.mark",
    class: "next_session",
    now: null,
    after: "klin",
  }]);
  assertEquals(ask.reason, "a test asks");
  respond(reader, ask.id, true);
  const refused = await reader.next((m) => m.kind === "error");
  assertMatch(String(refused.why), /respond_settings_write: .*did not declare answering/);
  respond(answerer, ask.id, true);
  assertEquals((await resolved()).ending, "answered");
  const turn1 = await untilResult(answerer);
  assertMatch(
    toolResultsOf(turn1)[0].text,
    /the person approved; forge.toml now holds client.mark = "klin"/,
  );
  const written = await Deno.readTextFile(world.configPath);
  assertEquals(
    written,
    `${original}\n[client]\nmark = "klin"\n`,
    "the key was added and nothing else moved",
  );
  for (const c of [answerer, reader]) {
    const frame = await c.next((m) =>
      m.kind === "settings" && JSON.stringify(m).includes('"klin"')
    );
    assert(frame, "the reload push reached both connections");
  }

  // --- 2. decline writes nothing -----------------------------------------------------------
  prompt("[[script:set2]] set it again");
  const ask2 = await pending();
  assertEquals((ask2.keys as Msg[])[0].now, "klin");
  respond(answerer, ask2.id, false);
  assertEquals((await resolved()).ending, "declined");
  const turn2 = await untilResult(answerer);
  assertEquals(toolResultsOf(turn2)[0], {
    text: "settings__set: the person declined; nothing was written.",
    isError: true,
  });
  assertEquals(await Deno.readTextFile(world.configPath), written);

  // --- 3. an invalid batch is refused with the loader's words and no ask ------------------
  prompt("[[script:badset]] set a bad theme");
  const turn3 = await untilResult(answerer);
  assert(!turn3.some((m) => updateOf(m, "settings_write_pending")), "nothing parked");
  const bad = toolResultsOf(turn3)[0];
  assertEquals(bad.isError, true);
  assertMatch(
    bad.text,
    /settings__set: forge's loader refuses the batch: .*theme.*Nothing was asked or written/s,
  );

  // --- 4. an interrupt mid-call withdraws the ask: ending cancelled ------------------------
  prompt("[[script:set3]] set and be interrupted");
  const ask3 = await pending();
  command(answerer, "cancel", { key: lead });
  const gone = await resolved();
  assertEquals([gone.id, gone.ending], [ask3.id, "cancelled"]);
  await untilResult(answerer);
  respond(answerer, ask3.id, true);
  assertMatch(
    String((await answerer.next((m) => m.kind === "error")).why),
    /no settings_write ask .* is waiting/,
  );
  assertEquals(await Deno.readTextFile(world.configPath), written);

  // --- 5. the ask outlives the person's connection: a new one finds it and answers it -------
  prompt("[[script:set4]] set while I reconnect");
  const ask4 = await pending();
  await answerer.close();
  const again = await forge.ready();
  const snap = await subscribeSeat(again, lead, true) as { pending_asks: Msg[]; pending_ask: Msg };
  assertEquals(snap.pending_asks.map((a) => [a.kind, a.id]), [["settings_write", ask4.id]]);
  assertEquals(snap.pending_ask.id, ask4.id);
  again.send({ kind: "subscribe", what: "home" });
  const home = (await again.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  const row = home.agents.find((a) => JSON.stringify(a.slot) === JSON.stringify(lead))!;
  assertEquals([row.pending, row.pending_depth, row.lifecycle], ["settings_write", 0, "Attention"]);
  respond(again, ask4.id, true);
  await again.next((m) => updateOf(m, "settings_write_resolved")?.ending === "answered", 30_000);
  await again.next(
    (m) => m.kind === "update" && JSON.stringify(m).includes('"type":"result"'),
    60_000,
  );
  assertMatch(await Deno.readTextFile(world.configPath), /mark = "spine"/);
});
