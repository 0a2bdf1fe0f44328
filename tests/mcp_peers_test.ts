// Spawned tier, real CLI + fake API (the agents family; tools are contributed through the
// registry). spec: "Not every frame on the stream is the CLI's" (a forged turn
// carries its source: `peer`), the original's peer_envelope_appended; the CLI's MCP
// list_changed, as measured (the next turn's tools follow it).
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { MCP_SCRIPT, type Msg, promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import {
  chatOf,
  command,
  seatWorld,
  subscribeSeat,
  typedUpdateOf,
  updateOf,
} from "./seats_harness.ts";

Deno.test("agents__send_message wakes a sleeping project's lead; its turn carries source peer", async () => {
  await using world = await seatWorld(
    [{ name: "alpha" }, { name: "beta", autoStart: false }],
    MCP_SCRIPT,
  );
  const forge = await world.startForge();
  const alpha = world.lead("alpha");
  const beta = world.lead("beta");
  const c = await forge.ready();
  await subscribeSeat(c, alpha, true);
  const watcher = await forge.ready();
  watcher.send({ kind: "subscribe", what: { session: beta } });
  const before = (await watcher.next((m) => m.kind === "snapshot")).data as { header: Msg };
  assertEquals(before.header.session_id, null, "beta sleeps");

  const who = toolResultsOf(await promptTurn(c, alpha, "[[script:whoami]] who am I"))[0];
  assertEquals(JSON.parse(who.text).slot, alpha);
  assertEquals(JSON.parse(who.text).role, "lead");

  const listed = JSON.parse(
    toolResultsOf(await promptTurn(c, alpha, "[[script:list]] who runs"))[0].text,
  );
  assertEquals(
    listed.map((r: Msg) => [r.slot, r.lifecycle]),
    [[alpha, "Running"], [beta, "Sleeping"]],
  );
  const lost = toolResultsOf(await promptTurn(c, alpha, "[[script:msgbad]] tell nobody"))[0];
  assertEquals(lost.isError, true);
  assertMatch(
    lost.text,
    /no project Acme\/nowhere is declared; the projects are Acme\/alpha, Acme\/beta/,
  );

  const sent = toolResultsOf(await promptTurn(c, alpha, "[[script:msg]] tell beta"))[0];
  assertEquals(sent.isError, false, sent.text);
  const receipt = JSON.parse(sent.text);
  assertEquals([receipt.status, receipt.to], ["delivered", beta]);
  assertMatch(receipt.id, /^m-[0-9a-f]{8}$/);

  const woke = updateOf(
    await watcher.next((m) => !!updateOf(m, "connected"), 60_000),
    "connected",
  )!;
  const forged = chatOf(
    await watcher.next((m) => chatOf(m)?.type === "user" && chatOf(m)?.source === "peer"),
  )!;
  const text = String((forged.message as Msg).content);
  assertEquals(
    text,
    `[Message id=${receipt.id} from agent 'alpha' (org 'Acme')]\nhello from alpha`,
  );
  const envelope = updateOf(
    await watcher.next((m) => !!updateOf(m, "peer_envelope_appended")),
    "peer_envelope_appended",
  )!;
  assertEquals(envelope.uuid, forged.uuid);
  assertEquals((envelope.wrapped as Msg).sender_name, "alpha");
  const turn = await untilResult(watcher);
  const result = chatOf(turn.at(-1)!)!;
  assertMatch(String(result.result), /hello from alpha/, "beta's CLI ran the delivered turn");

  // Closed, beta sleeps again; the next message wakes it on the session it had, not a new one.
  command(c, "close_session", { session_key: beta });
  await watcher.next((m) => !!updateOf(m, "releasing"), 60_000);
  const again = toolResultsOf(await promptTurn(c, alpha, "[[script:msg]] tell beta again"))[0];
  assertEquals(again.isError, false, again.text);
  const resumed = updateOf(
    await watcher.next((m) => !!updateOf(m, "connected"), 60_000),
    "connected",
  )!;
  assertEquals(resumed.session_id, woke.session_id, "the woken lead resumed its last session");
  await watcher.next((m) => chatOf(m)?.type === "user" && chatOf(m)?.source === "peer");
  await untilResult(watcher);
});

Deno.test("a subsystem switched off by a reload is gone from the next turn's tools", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  const initTools = (frames: Msg[]) =>
    frames.map(chatOf).find((f) => f?.type === "system" && f.subtype === "init")!.tools as string[];

  command(c, "prompt", {
    key: lead,
    text: "[[script:off]] turn the terminal off",
    attachments: [],
  });
  const ask = typedUpdateOf(
    await c.next((m) => !!updateOf(m, "settings_write_pending"), 60_000),
    "settings_write_pending",
  )!;
  const first = await (async () => {
    command(c, "respond_settings_write", { key: lead, id: ask.id, approved: true });
    return await untilResult(c);
  })();
  assert(initTools(first).includes("mcp__forge__terminal__run"), "the terminal tools were listed");
  assertMatch(toolResultsOf(first)[0].text, /terminal.enabled = false/);

  const next = await promptTurn(c, lead, "[[script:run]] run something");
  const tools = initTools(next);
  assert(!tools.some((t) => t.startsWith("mcp__forge__terminal__")), `gone: ${tools.join(",")}`);
  assert(tools.includes("mcp__forge__settings__get"), "the others stay");
  const refused = toolResultsOf(next)[0];
  assertEquals(refused.isError, true);
});
