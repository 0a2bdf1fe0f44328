import { assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { ForgeClient } from "./client.ts";

// Every frame the page reads is checked against protocol/'s ServerMessage first: one that does
// not fit is said and dropped, never acted on. spec: How a message is tagged.

Deno.test("client: a frame off the schema is said and dropped; the next good one is read", async () => {
  let opened!: WebSocket;
  const ready = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    opened = socket;
    socket.onopen = () => ready.resolve();
    return response;
  });
  const c = new ForgeClient(`ws://127.0.0.1:${server.addr.port}/socket`, new ManualClock());
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise<void>((r) => c.store.listen(r));
  };
  c.start();
  await ready.promise;
  opened.send(JSON.stringify({ kind: "greeting", version: "twenty-nine" }));
  await until(() => c.stats.schemaErrors.length > 0);
  assertEquals(c.state.greeting, null);
  assertEquals(c.stats.schemaErrors.length, 1);
  assertMatch(c.stats.schemaErrors[0], /^greeting: /);
  opened.send(JSON.stringify({
    kind: "greeting",
    version: 29,
    forge_version: "1 · abc",
    forge_version_short: "1+abc",
    settings: {
      mark: null,
      theme: null,
      font: null,
      dictate: { styling: "semi_formal", structure: "prose", context: "general" },
    },
  }));
  await until(() => c.state.greeting !== null);
  assertEquals(c.state.greeting?.version, 29);
  c.link.stop();
  await server.shutdown();
});

Deno.test("client: a held subject the server refuses is kept in words for its page", async () => {
  let opened!: WebSocket;
  const ready = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    opened = socket;
    socket.onopen = () => ready.resolve();
    return response;
  });
  const c = new ForgeClient(`ws://127.0.0.1:${server.addr.port}/socket`, new ManualClock());
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise<void>((r) => c.store.listen(r));
  };
  c.start();
  await ready.promise;
  c.hold("dictate_models", true);
  const why = "dictate_models: [dictate] and [tts] are both off in forge.toml";
  // A refusal of a subject this page does not hold is a notice only.
  opened.send(JSON.stringify({
    kind: "error",
    what: "subscribe",
    why: "extensions: no plugins root",
    seat: null,
    dispatch_id: null,
  }));
  opened.send(
    JSON.stringify({ kind: "error", what: "subscribe", why, seat: null, dispatch_id: null }),
  );
  await until(() => c.state.refusedReads.dictate_models !== undefined);
  assertEquals(c.state.refusedReads, { dictate_models: why });
  // The held subject's refusal is its page's to draw, not a notice on every page.
  assertEquals(c.state.errors.map((e) => e.why), ["extensions: no plugins root"]);
  // Let go (the page was left), its second read's refusal lands late: still no notice.
  c.hold("dictate_models", false);
  const late = "dictate_models: [dictate] and [tts] are both off (again)";
  opened.send(
    JSON.stringify({ kind: "error", what: "subscribe", why: late, seat: null, dispatch_id: null }),
  );
  await until(() => c.state.refusedReads.dictate_models === late || c.state.errors.length > 1);
  assertEquals(c.state.errors.map((e) => e.why), ["extensions: no plugins root"]);
  assertEquals(c.state.refusedReads, { dictate_models: late });
  c.link.stop();
  await server.shutdown();
});
