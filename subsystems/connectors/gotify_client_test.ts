// forge's Gotify client against the fake Gotify server run as its own process (
// stream, reconnect with back-off, catch-up through /message paging so nothing is lost or
// delivered twice; a refused token answered in words).
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { startFakeGotify } from "../../fixtures/gotify/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { cursorFile, GotifyClient } from "./gotify_client.ts";

async function until(cond: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The message a call rejects with; null when it resolves. */
function refusal(call: () => Promise<unknown>): Promise<string | null> {
  return call().then(() => null, (err) => (err as Error).message);
}

function client(dir: string, url: string, token: string, got: string[]) {
  return new GotifyClient({
    url,
    token,
    cursor: cursorFile(new StateKeeper(memoryLogger()), `${dir}/cursor.json`),
    onMessage: (m, app) => got.push(`${app}:${m.message}`),
    onState: () => {},
    log: memoryLogger(),
    backoffMs: { first: 50, max: 400 },
    probeMs: 200,
  });
}

Deno.test("gotify client: streams, and after a drop or a server restart catches up once, in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-gotify-" });
  const fake = await startFakeGotify(dir);
  const got: string[] = [];
  let c = client(dir, fake.url, fake.clientToken, got);
  try {
    await fake.push("ci", { message: "before forge" });
    c.start();
    await until(() => c.connected, "connected");
    await fake.push("ci", { title: "build 42", message: "one", priority: 8 });
    await until(() => got.length === 1, "the streamed message");

    // The stream drops and the server refuses new streams a while: messages sent meanwhile are
    // caught up through /message once the stream is back.
    await fake.acceptStreams(false);
    await fake.dropStreams();
    await until(() => !c.connected, "down");
    await fake.push("backup", { message: "two" });
    await fake.push("ci", { message: "three" });
    await fake.acceptStreams(true);
    await until(() => got.length === 3, "the caught-up messages");

    // The server process restarts (its database kept); messages posted before forge is back.
    await fake.restart({ refuseStreams: true });
    await fake.push("ci", { message: "four" });
    await fake.acceptStreams(true);
    await until(() => got.length === 4, "the message sent across the restart");
    await fake.push("ci", { message: "five" });
    await until(() => got.length === 5, "streaming again");

    // forge itself restarts: the stored cursor means nothing is delivered again.
    await c.stop();
    await fake.push("ci", { message: "six" });
    c = client(dir, fake.url, fake.clientToken, got);
    c.start();
    await until(() => got.length === 6, "the message sent while forge was down");
    await fake.push("ci", { message: "seven" });
    await until(() => got.length === 7, "streaming after forge's restart");
    assertEquals(got, [
      "ci:one",
      "backup:two",
      "ci:three",
      "ci:four",
      "ci:five",
      "ci:six",
      "ci:seven",
    ]);
  } finally {
    await c.stop();
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gotify client: a wrong client token is down with Gotify's words, and retried", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-gotify-" });
  const fake = await startFakeGotify(dir);
  const c = client(dir, fake.url, "gtfyc.wrong", []);
  try {
    c.start();
    await until(() => c.error !== null, "an error");
    assert(!c.connected);
    assertMatch(c.error!, /Gotify refused \/application \(401\): you need to provide a valid/);
    await assertRejects(() => c.apps(), /401/);
  } finally {
    await c.stop();
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gotify client: an answer that is not Gotify's shape is down in forge's words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-gotify-" });
  // A stand-in for a server at the configured URL that is not Gotify: every path answers JSON
  // of the wrong shape (the application list alone is right when `apps` is set).
  let apps = false;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (apps && path === "/application") return Response.json([{ id: 1, name: "ci" }]);
    return Response.json({ unexpected: true });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const log = memoryLogger();
  const c = new GotifyClient({
    url,
    token: "gtfyc.any",
    cursor: cursorFile(new StateKeeper(memoryLogger()), `${dir}/cursor.json`),
    onMessage: () => {},
    onState: () => {},
    log,
    backoffMs: { first: 50, max: 400 },
  });
  try {
    c.start();
    await until(() => c.error !== null, "an error");
    assertEquals(
      c.error,
      "Gotify answered /application with something that is not an application list",
    );
    const failed = log.records.find((r) => r.event === "gotify_connection_failed") as
      | { error?: unknown }
      | undefined;
    assertEquals(failed?.error, c.error);
    assertEquals(
      await refusal(() => c.recent()),
      "Gotify answered /application with something that is not an application list",
    );
    apps = true;
    assertEquals(await c.apps(), ["ci"]);
    assertEquals(
      await refusal(() => c.recent()),
      "Gotify answered /message with something that is not a page of messages",
    );
    const logged = JSON.stringify(log.records);
    for (const engine of ["invalid_type", "Invalid input", "expected"]) {
      assert(!logged.includes(engine), `the log holds a schema library's words: ${logged}`);
    }
  } finally {
    await c.stop();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
