import { BinaryKind, encodeDictationFrame } from "../protocol/mod.ts";
import { key } from "../server/config/spec.ts";
import type { ToolSpec } from "../server/subsystem.ts";
import { assert, assertEquals } from "./assert.ts";
import { SAMPLE_CONFIG, testServer, until } from "./harness.ts";
import { fakePreview, testManifest } from "./registry_fakes.ts";

// A disabled subsystem is never imported, and its verbs answer naming the key.
Deno.test("an off subsystem is never imported and its verb names the switch", async () => {
  let imported = false;
  const declared = testManifest("fake", {
    switch: "fake.enabled",
    area: {
      id: "fake",
      name: "fake",
      note: "test",
      keys: [key.bool("fake.enabled", true, "restart", "on/off")],
    },
    verbs: ["voice_preview"],
  }, () => ({ verbs: { voice_preview: () => {} } }));
  const fake = {
    ...declared,
    load: () => {
      imported = true;
      return declared.load!();
    },
  };
  await using t = await testServer(SAMPLE_CONFIG + "\n[fake]\nenabled = false\n", {
    extra: [fake],
  });
  const c = await t.ready();
  c.send({
    kind: "voice_preview",
    key: { org: "Acme", project: "proj", label: "lead" },
    voice: null,
  });
  const e = await c.next();
  assertEquals([e.kind, e.what], ["error", "voice_preview"]);
  assertEquals(
    e.why,
    "voice_preview: the fake subsystem is turned off by fake.enabled in forge.toml",
  );
  assertEquals(e.seat, { org: "Acme", project: "proj", label: "lead" });
  assertEquals(imported, false);
});

// A subsystem that throws at start is reported and the rest of the server runs.
Deno.test("a subsystem that throws at start is reported and the rest runs", async () => {
  const broken = testManifest("broken", { note: "throws at start", verbs: ["voice_mode"] }, () => {
    throw new Error("no speaker attached");
  });
  await using t = await testServer(SAMPLE_CONFIG, { extra: [broken] });
  const c = await t.ready();
  c.send({
    kind: "voice_mode",
    key: { org: "Acme", project: "proj", label: "lead" },
    on: true,
    explicit: true,
  });
  const e = await c.next();
  assertEquals(e.why, "voice_mode: the broken subsystem failed to start: no speaker attached");
  c.send({ kind: "subscribe", what: "home" });
  // Home's fatal_error is the message, as the original's client reads it.
  const home = (await c.next()).data as { fatal_error: string };
  assertEquals(
    home.fatal_error,
    "the broken subsystem failed to start: no speaker attached",
  );
  assert(t.log.records.some((r) => r.event === "subsystem_failed"));
});

// spec: subscribe > answering: declared once, it stands for the connection.
Deno.test("a handler sees the connection's answering role, which only goes one way", async () => {
  const seen: boolean[] = [];
  const probe = fakePreview("probe", (_m, peer) => {
    seen.push(peer.answering);
    peer.send({ kind: "pong" });
  });
  await using t = await testServer(SAMPLE_CONFIG, { extra: [probe] });
  const c = await t.ready();
  const probeOnce = async () => {
    c.send({
      kind: "voice_preview",
      key: { org: "Acme", project: "proj", label: "lead" },
      voice: null,
    });
    await c.next((m) => m.kind === "pong");
  };
  await probeOnce();
  c.send({ kind: "subscribe", what: "home", answering: true });
  await c.next((m) => m.kind === "snapshot");
  await probeOnce();
  c.send({ kind: "subscribe", what: "board", answering: false });
  await c.next((m) => m.kind === "snapshot");
  await probeOnce();
  assertEquals(seen, [false, true, true]);
});

// spec: "A connection whose own loop stops is ended as well": four write bounds without progress.
Deno.test("the watchdog ends a connection whose handler never returns", async () => {
  const stuck = fakePreview("stuck", () => new Promise<void>(() => {}));
  await using t = await testServer(SAMPLE_CONFIG, {
    extra: [stuck],
    timers: { writeBoundMs: 100, sampleMs: 20 },
  });
  const c = await t.ready();
  c.send({
    kind: "voice_preview",
    key: { org: "Acme", project: "proj", label: "lead" },
    voice: null,
  });
  await c.closed();
  // Ended by the watchdog (not by the write bound, which has nothing to write): the record names
  // it. How long after the stall is `tools/deno.sh task bench lifecycle`'s figure.
  await until(() =>
    t.log.records.some((r) =>
      r.event === "connection_ended" && (r as unknown as { reason: string }).reason === "watchdog"
    )
  );
  await until(() => t.server.connections() === 0);
});

// spec: browser_tabs, terminal_view: "A refusal answers {"ok": false, "why": ...}; with no
// reply_to, a refusal is an error frame". A switched-off subsystem's refusal is one too.
Deno.test("an off subsystem's verb asked with reply_to is refused in the reply", async () => {
  await using t = await testServer(
    SAMPLE_CONFIG + "\n[terminal]\nenabled = false\n\n[browser]\nenabled = false\n",
  );
  const c = await t.ready();
  const seat = { org: "Acme", project: "proj", label: "lead" };
  c.send({ kind: "terminal_view", seat, reply_to: 7 });
  const terminal = await c.next();
  assertEquals(terminal, {
    kind: "reply",
    reply_to: 7,
    body: {
      ok: false,
      why: "terminal_view: the terminal subsystem is turned off by terminal.enabled in forge.toml",
    },
  });
  c.send({ kind: "browser_tabs", seat, reply_to: 8 });
  const browser = await c.next();
  assertEquals([browser.kind, browser.reply_to, (browser.body as { ok: boolean }).ok], [
    "reply",
    8,
    false,
  ]);
  c.send({ kind: "terminal_view", seat });
  const bare = await c.next();
  assertEquals([bare.kind, bare.what], ["error", "terminal_view"]);
});

// DESIGN: A subsystem: one that fails to start is reported and the rest runs, whatever stopped it
// - a tool declared without a name (the check used to throw past the registry and end the boot),
// a module that throws as it is imported - and the engine's words never reach the wire.
Deno.test("a subsystem with a nameless tool or a module that throws is refused; the rest runs", async () => {
  const nameless = testManifest("nameless_tool", {
    note: "declares a tool with no name",
    verbs: ["voice_mode"],
    tools: [{ family: "fault", roles: ["lead"] } as unknown as ToolSpec],
    load: () =>
      Promise.reject<never>(new Error("never imported: its declaration is refused first")),
  });
  const unimportable = testManifest("unimportable", {
    note: "its module throws as it loads",
    verbs: ["terminal_view"],
    load: () =>
      Promise.reject<never>(new TypeError("Cannot read properties of undefined (reading 'x')")),
  });
  const after = fakePreview("after_them", (_m, peer) => peer.send({ kind: "pong" }));
  await using t = await testServer(SAMPLE_CONFIG, { extra: [nameless, unimportable, after] });
  const c = await t.ready();
  const seat = { org: "Acme", project: "proj", label: "lead" };
  c.send({ kind: "voice_mode", key: seat, on: true, explicit: true });
  assertEquals(
    (await c.next()).why,
    "voice_mode: the nameless_tool subsystem failed to start: a tool is declared without its name",
  );
  c.send({ kind: "terminal_view", seat });
  assertEquals(
    (await c.next()).why,
    "terminal_view: the unimportable subsystem failed to start: its module could not be loaded; " +
      "the log has the cause",
  );
  // The subsystem after them runs, and home tells the failure on the wire.
  c.send({ kind: "voice_preview", key: seat, voice: null });
  await c.next((m) => m.kind === "pong");
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot")).data as { fatal_error: string };
  assertEquals(
    home.fatal_error,
    "the unimportable subsystem failed to start: its module could not be loaded; the log has the " +
      "cause",
  );
  const failed = t.log.records.filter((r) => r.event === "subsystem_failed").map((r) =>
    (r as unknown as { subsystem: string }).subsystem
  );
  assertEquals(failed, ["nameless_tool", "unimportable"]);
});

// One subsystem's part of a snapshot that throws is left out, logged; the subject still answers
// (home left it out already; the session and the board did not).
Deno.test("a subsystem whose snapshot part throws is left out; session, home and board answer", async () => {
  const broken = testManifest(
    "broken_parts",
    { note: "every snapshot part it adds throws" },
    () => ({
      sessionFields: () => Promise.reject(new TypeError("session part")),
      homeFields: () => Promise.reject(new TypeError("home part")),
      boardFields: () => {
        throw new TypeError("board part");
      },
    }),
  );
  await using t = await testServer(SAMPLE_CONFIG, { extra: [broken] });
  const c = await t.ready();
  for (
    const what of [{ session: { org: "Acme", project: "proj", label: "lead" } }, "home", "board"]
  ) {
    c.send({ kind: "subscribe", what } as never);
    const snap = await c.next((m) => m.kind === "snapshot" || m.kind === "error");
    assertEquals(snap.kind, "snapshot", JSON.stringify(snap));
  }
  const failed = t.log.records.filter((r) => /^subsystem_.*_failed$/.test(r.event)).map((r) => [
    r.event,
    (r as unknown as { subsystem: string }).subsystem,
  ]);
  assertEquals(failed, [
    ["subsystem_session_failed", "broken_parts"],
    ["subsystem_home_failed", "broken_parts"],
    ["subsystem_board_failed", "broken_parts"],
  ]);
});

// A start whose handlers do not match its manifest is refused; what that start began is stopped.
Deno.test("a subsystem refused for a missing handler is stopped, not left running", async () => {
  let stopped = 0;
  const halfBuilt = testManifest("half_built", {
    note: "declares a verb it has no handler for",
    verbs: ["voice_mode"],
  }, () => ({
    stop: () => {
      stopped++;
      return Promise.resolve();
    },
  }));
  await using t = await testServer(SAMPLE_CONFIG, { extra: [halfBuilt] });
  assertEquals(stopped, 1, "its start's work was stopped when it was refused");
  const c = await t.ready();
  c.send({
    kind: "voice_mode",
    key: { org: "Acme", project: "proj", label: "lead" },
    on: true,
    explicit: true,
  });
  assertEquals(
    (await c.next()).why,
    "voice_mode: the half_built subsystem failed to start: declares voice_mode but has no " +
      "handler for them",
  );
  await t.server.stop();
  assertEquals(stopped, 1, "stopped once, not again at shutdown");
});

// A binary handler that throws is one subsystem's failure: the connection that sent the frame
// goes on reading (its messages are handled one at a time, and a throw would stall the queue).
Deno.test("a subsystem whose binary handler throws is logged; the connection reads on", async () => {
  const broken = testManifest("broken_binary", {
    note: "its binary handler throws",
    binary: [BinaryKind.dictation],
  }, () => ({
    binary: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'take')");
    },
  }));
  await using t = await testServer(SAMPLE_CONFIG, { extra: [broken] });
  const c = await t.ready();
  c.sendBinary(encodeDictationFrame(new Int16Array(320)));
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  const failed = t.log.records.find((r) => r.event === "subsystem_binary_failed");
  assertEquals((failed as unknown as { subsystem: string }).subsystem, "broken_binary");
});
