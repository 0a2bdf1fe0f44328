import { Buffer } from "node:buffer";
import { decodeTerminalOutput, encodeTerminalInput } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";
import { replay, type ReplayPiece } from "./terminal_support.ts";

const seat = { org: "Acme", project: "proj", label: "lead" };

function config(path: string, extra = ""): string {
  return `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n[[orgs]]\nname = "Acme"\naccounts = ["Fake"]\n` +
    `[[orgs.projects]]\nname = "proj"\npath = "${path}"\n${extra}`;
}

/** Everything a client has seen of terminal `id`'s byte stream, as text. */
function output(c: ForgeClient, id: number): string {
  return c.frames.flatMap((f) => {
    if (f.type !== "binary" || f.kind !== 4) return [];
    const d = decodeTerminalOutput(f.bytes);
    return d.ok && d.frame.id === id ? [new TextDecoder().decode(d.frame.bytes)] : [];
  }).join("");
}

async function waitOutput(c: ForgeClient, id: number, re: RegExp, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!re.test(output(c, id))) {
    if (performance.now() > deadline) {
      throw new Error(`no ${re} in terminal output: ${JSON.stringify(output(c, id).slice(-300))}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

// spec: terminal_view, terminal_control, kinds 4 and 5: two viewers see the same bytes.
Deno.test("two viewers share a real shell; only the controller types; a take moves control", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(config(project));
  const a = await t.ready();
  const b = await t.ready();
  a.send({ kind: "terminal_view", seat, reply_to: 1 });
  const replyA = await a.next((m) => m.kind === "reply");
  const body = replyA.body as { ok: boolean; id: number };
  assertEquals(body.ok, true);
  const viewA = await a.next((m) => m.kind === "terminal_view");
  assertEquals([viewA.seat, viewA.id, viewA.controller], [seat, body.id, null]);
  b.send({ kind: "terminal_view", seat, id: body.id, reply_to: 2 });
  assertEquals((await b.next((m) => m.kind === "reply")).body, { ok: true, id: body.id });
  const viewB = await b.next((m) => m.kind === "terminal_view");

  a.send({ kind: "terminal_control", seat, id: body.id, take: true });
  const ctlB = await b.next((m) => m.kind === "terminal_control");
  assertEquals(ctlB.controller, viewA.viewer);
  a.sendBinary(encodeTerminalInput(body.id, new TextEncoder().encode("echo forge-$((6*7))\r")));
  await waitOutput(a, body.id, /forge-42/);
  await waitOutput(b, body.id, /forge-42/);

  b.sendBinary(encodeTerminalInput(body.id, new TextEncoder().encode("echo nope\r")));
  const refused = await b.next((m) => m.kind === "error");
  assertEquals(refused.what, "terminal_input");

  b.send({ kind: "terminal_control", seat, id: body.id, take: true });
  const moved = await a.next((m) => m.kind === "terminal_control" && m.controller === viewB.viewer);
  assertEquals(moved.id, body.id);
  b.sendBinary(encodeTerminalInput(body.id, new TextEncoder().encode("echo b-$((2+3))\r")));
  await waitOutput(a, body.id, /b-5/);
  assert(!output(a, body.id).includes("nope"), "the watcher's keys never reached the shell");
  await Deno.remove(project, { recursive: true });
});

// spec: terminal_close and the session table's `terminal` row / terminal_changed.
Deno.test("terminal_close ends the shell; the session hears terminal_changed; the next open is fresh", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(config(project));
  const c = await t.ready();
  c.send({ kind: "subscribe", what: { session: seat } });
  const snap = (await c.next((m) => m.kind === "snapshot")).data as { terminal: unknown };
  assertEquals(snap.terminal, null);
  c.send({ kind: "terminal_view", seat, reply_to: 1 });
  const id = ((await c.next((m) => m.kind === "reply")).body as { id: number }).id;
  const opened = await c.next((m) =>
    m.kind === "update" && "terminal_changed" in (m.update as object)
  );
  const summary = (opened.update as {
    terminal_changed: { terminal: { id: number; cwd: string; alive: boolean } };
  }).terminal_changed.terminal;
  assertEquals([summary.id, summary.cwd, summary.alive], [id, project, true]);
  c.send({ kind: "terminal_close", seat, id });
  await c.next((m) =>
    m.kind === "update" &&
    (m.update as { terminal_changed?: { terminal: unknown } }).terminal_changed?.terminal === null
  );
  c.send({ kind: "terminal_view", seat, reply_to: 2 });
  const again = (await c.next((m) => m.kind === "reply" && m.reply_to === 2)).body as {
    ok: boolean;
    id: number;
  };
  assertEquals(again.ok, true);
  assert(again.id !== id, "a fresh shell gets a fresh id");
  c.send({ kind: "terminal_view", seat, id: 999, reply_to: 3 });
  const wrong = (await c.next((m) => m.kind === "reply" && m.reply_to === 3)).body as {
    ok: boolean;
    why: string;
  };
  assertEquals(wrong.ok, false);
  assertMatch(wrong.why, /999/);
  await Deno.remove(project, { recursive: true });
});

Deno.test("with [terminal] off, its verbs answer naming the key", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(config(project, "\n[terminal]\nenabled = false\n"));
  const c = await t.ready();
  c.send({ kind: "terminal_view", seat });
  const e = await c.next();
  assertEquals(
    e.why,
    "terminal_view: the terminal subsystem is turned off by terminal.enabled in forge.toml",
  );
  await Deno.remove(project, { recursive: true });
});

// The model trails a burst and the bytes are relayed first, coalesced into
// fewer frames; none may be lost, reordered or repeated on the way to a socket viewer.
Deno.test("a multi-MB burst reaches two socket viewers byte for byte (kind 4, by hash)", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(config(project));
  const a = await t.ready();
  const b = await t.ready();
  a.send({ kind: "terminal_view", seat, reply_to: 1 });
  const id = ((await a.next((m) => m.kind === "reply")).body as { id: number }).id;
  b.send({ kind: "terminal_view", seat, id, reply_to: 2 });
  await b.next((m) => m.kind === "reply");
  const view = await a.next((m) => m.kind === "terminal_view");
  await b.next((m) => m.kind === "terminal_view");
  a.send({ kind: "terminal_control", seat, id, take: true });
  await a.next((m) => m.kind === "terminal_control" && m.controller === view.viewer);
  const N = 500_000;
  const command = `echo start-$((1+1)); seq 1 ${N}; echo done-$((6*7))\r`;
  a.sendBinary(encodeTerminalInput(id, new TextEncoder().encode(command)));
  let want = "";
  for (let i = 1; i <= N; i++) want += `${i}\r\n`;
  const wantHash = await sha256(new TextEncoder().encode(want));
  for (const c of [a, b]) {
    await waitOutput(c, id, /done-42/, 60_000);
    const frames = c.frames.flatMap((f) => {
      if (f.type !== "binary" || f.kind !== 4) return [];
      const d = decodeTerminalOutput(f.bytes);
      return d.ok && d.frame.id === id ? [d.frame] : [];
    });
    const gaps = frames.filter((f, i) => i > 0 && f.seq !== frames[i - 1].seq + 1);
    assertEquals(gaps.length, 0, "kind-4 sequences run without a gap or a repeat");
    assertEquals(
      c.frames.filter((f) => f.type === "json" && f.data.kind === "terminal_view").length,
      1,
    );
    const all = Buffer.concat(frames.map((f) => f.bytes));
    const text = new TextDecoder().decode(all);
    const start = text.indexOf("start-2\r\n") + "start-2\r\n".length;
    const end = text.indexOf("done-42");
    const body = all.subarray(start, end);
    assertEquals(body.length, want.length, "the bytes between the markers");
    assertEquals(await sha256(body), wantHash);
  }
  // A late viewer, attached while the model may still trail the burst: its screen and the
  // frames after it draw what a fresh xterm fed the first viewer's whole stream draws.
  const late = await t.ready();
  late.send({ kind: "terminal_view", seat, id, reply_to: 3 });
  const lateView = await late.next((m) => m.kind === "terminal_view");
  const lastSeq = (c: ForgeClient) =>
    c.frames.reduce((n, f) => {
      const d = f.type === "binary" && f.kind === 4 ? decodeTerminalOutput(f.bytes) : null;
      return d?.ok ? d.frame.seq : n;
    }, lateView.seq as number);
  const deadline = performance.now() + 30_000;
  while (lastSeq(late) !== lastSeq(a)) {
    if (performance.now() > deadline) throw new Error(`late ${lastSeq(late)}, a ${lastSeq(a)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const stream = (c: ForgeClient): ReplayPiece[] =>
    c.frames.flatMap((f): ReplayPiece[] => {
      if (f.type === "json" && f.data.kind === "terminal_view") return [f.data.screen as string];
      const d = f.type === "binary" && f.kind === 4 ? decodeTerminalOutput(f.bytes) : null;
      return d?.ok ? [d.frame.bytes] : [];
    });
  // Both taken at the same sequence, before anything else can arrive.
  const [mine, theirs] = [stream(late), stream(a)];
  assertEquals(await replay(mine, 80, 24), await replay(theirs, 80, 24));
  await Deno.remove(project, { recursive: true });
});

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes.slice());
  return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
}
