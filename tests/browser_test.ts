// Socket tier with a REAL Chromium (Debian's `chromium`) on loopback test pages. spec:
// browser_view, browser_control, browser_input, browser_resize, browser_file_answer,
// browser_download, browser_surface_failed, browser_tabs; binary kind 1.
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { browserConfig, framesOf, nextBrowserFrame, pageServer, SEAT } from "./browser_harness.ts";
import { pathWithout, testServer } from "./harness.ts";
import { spawnForge } from "./spawned.ts";

type Row = { number: number; url: string; title: string };
type Tabs = { up: boolean; rows: Row[]; closing_at_ms: number | null };

/** Opens `url` through open_url and returns the tab number its row took. */
async function openPage(c: ForgeClient, url: string, title = "form page"): Promise<number> {
  c.send({ kind: "browser_tabs", seat: SEAT, reply_to: 91 });
  await c.next((m) => m.kind === "reply" && m.reply_to === 91, 30_000);
  c.send({ kind: "command", command: { open_url: { url } } });
  const pushed = await c.next((m) =>
    m.kind === "browser_tabs" &&
    (m as unknown as Tabs).rows.some((r) => r.url === url && r.title === title), 30_000).catch(
      (e) => {
        const rows = c.frames.filter((f) => f.type === "json" && f.data.kind === "browser_tabs");
        throw new Error(`${e}\nlast rows: ${JSON.stringify(rows.at(-1))}`);
      },
    ) as unknown as Tabs;
  return pushed.rows.find((r) => r.url === url)!.number;
}

async function attach(c: ForgeClient, tab: number, replyTo: number) {
  c.send({ kind: "browser_view", seat: SEAT, tab, reply_to: replyTo });
  const reply = await c.next((m) => m.kind === "reply" && m.reply_to === replyTo, 30_000);
  assertEquals(reply.body, { ok: true, profile: "Acme/default", tab });
  const view = await c.next((m) => m.kind === "browser_view" && m.tab === tab, 30_000);
  await c.next((m) => m.kind === "browser_nav_state" && m.tab === tab, 30_000);
  return view.viewer as number;
}

function records(t: { log: { records: Record<string, unknown>[] } }, event: string) {
  return t.log.records.filter((r) => r.event === event);
}

Deno.test("two viewers see the frames; a take moves control; only the controller's input lands", async () => {
  await using page = pageServer();
  const project = await Deno.makeTempDir();
  await using t = await testServer(browserConfig(project));
  const a = await t.ready();
  const b = await t.ready();
  const url = `${page.url}/form`;
  const tab = await openPage(a, url);
  const va = await attach(a, tab, 1);
  const key = await nextBrowserFrame(a, (f) => f.key && f.tab === tab);
  assertEquals([key.format, key.pageWidth, key.pageHeight], [1, 1280, 720]);
  assertEquals(new TextDecoder().decode(key.bytes.subarray(8, 12)), "WEBP");
  const vb = await attach(b, tab, 2);
  await nextBrowserFrame(b, (f) => f.tab === tab);
  assert(va !== vb, "two viewers, two ids");

  a.send({ kind: "browser_control", take: true });
  const seen = await b.next((m) => m.kind === "browser_view" && m.controller === va, 30_000);
  assertEquals([seen.viewers, seen.viewer], [2, vb]);
  assertEquals(records(t, "browser_control").at(-1)?.landed, true);

  // A re-attach to the same tab keeps the viewer and the role; the record says same_surface.
  const mark = a.frames.length;
  a.send({ kind: "browser_view", seat: SEAT, tab, reply_to: 3 });
  await a.next((m) => m.kind === "reply" && m.reply_to === 3, 30_000);
  let again = await a.next((m) => m.kind === "browser_view", 30_000);
  while (a.frames.findIndex((f) => f.type === "json" && f.data === again) < mark) {
    again = await a.next((m) => m.kind === "browser_view", 30_000);
  }
  assertEquals([again.viewer, again.controller], [va, va]);
  const attaches = records(t, "browser_attach");
  assertEquals(attaches.map((r) => r.same_surface), [false, false, true]);
  assertEquals([attaches[2].from_tab, attaches[2].tab], [tab, tab]);

  // A watcher's click is refused and recorded; its typed text by count only.
  b.send({ kind: "browser_input", seq: 1, event: { type: "press", x: 100, y: 60 } });
  assertEquals((await b.next((m) => m.kind === "error", 30_000)).what, "browser_input");
  b.send({ kind: "browser_input", seq: 2, event: { type: "text", text: "secret" } });
  await b.next((m) => m.kind === "error", 30_000);
  const refused = records(t, "browser_input_refused");
  assertEquals(refused.map((r) => [r.kind, r.chars]), [["press", undefined], ["text", 6]]);
  assert(!JSON.stringify(t.log.records).includes("secret"), "typed text never reaches the log");

  // The controller's click and typing change the page: the DOM reports, a new frame follows.
  const before = framesOf(a).at(-1)!;
  a.send({ kind: "browser_input", seq: 1, event: { type: "press", x: 100, y: 60 } });
  await page.event((e) => e.what === "click");
  // The page repainted after the click: a later frame whose pixels differ.
  const painted = before.bytes.join();
  const after = await nextBrowserFrame(a, (f) => f.seq > before.seq && f.bytes.join() !== painted);
  await nextBrowserFrame(b, (f) => f.seq >= after.seq);
  a.send({ kind: "browser_input", seq: 2, event: { type: "press", x: 150, y: 160 } });
  a.send({ kind: "browser_input", seq: 3, event: { type: "text", text: "hello" } });
  a.send({ kind: "browser_input", seq: 3, event: { type: "text", text: "LATE" } });
  a.send({ kind: "browser_input", seq: 4, event: { type: "key", key: "!" } });
  await page.event((e) => e.what === "input" && e.value === "hello!");
  assert(!page.events.some((e) => e.value?.includes("LATE")), "a stale seq never lands");

  // The controller owns the layout: a watcher's size asks nothing, the controller's gives a
  // key frame at the new size.
  b.send({ kind: "browser_resize", width: 400, height: 300, scale: 1 });
  a.send({ kind: "browser_resize", width: 800, height: 600, scale: 1 });
  const resized = await nextBrowserFrame(a, (f) => f.key && f.width === 800);
  assertEquals([resized.height, resized.pageWidth, resized.pageHeight], [600, 800, 600]);
  assert(!framesOf(a).some((f) => f.width === 400), "the watcher's size never applied");

  // A take by the watcher moves the role; the old controller is told.
  b.send({ kind: "browser_control", take: true });
  await a.next((m) => m.kind === "browser_view" && m.controller === vb, 30_000);
  a.send({ kind: "browser_input", seq: 9, event: { type: "press", x: 100, y: 60 } });
  assertEquals((await a.next((m) => m.kind === "error", 30_000)).what, "browser_input");
  await Deno.remove(project, { recursive: true });
});

Deno.test("a file chooser answered from the socket uploads the bytes; a download reaches the controller", async () => {
  await using page = pageServer();
  const project = await Deno.makeTempDir();
  await using t = await testServer(browserConfig(project));
  const a = await t.ready();
  const b = await t.ready();
  const tab = await openPage(a, `${page.url}/form`);
  await attach(a, tab, 1);
  await attach(b, tab, 2);
  a.send({ kind: "browser_control", take: true });
  await a.next((m) => m.kind === "browser_view" && m.controller !== null, 30_000);
  a.send({ kind: "browser_input", seq: 1, event: { type: "press", x: 60, y: 232 } });
  const dialog = await a.next((m) => m.kind === "browser_file_dialog", 30_000);
  assertEquals([dialog.tab, dialog.multiple], [tab, false]);
  const data = btoa("hi there");
  b.send({ kind: "browser_file_answer", id: String(dialog.id), files: [{ name: "x.txt", data }] });
  assertEquals((await b.next((m) => m.kind === "error", 30_000)).what, "browser_file_answer");
  a.send({ kind: "browser_file_answer", id: "nope", files: [{ name: "x.txt", data }] });
  assertEquals((await a.next((m) => m.kind === "error", 30_000)).what, "browser_file_answer");
  // Past 16 files the whole answer is a dismiss: nothing reaches the page, the id is spent.
  const many = Array.from({ length: 17 }, (_, i) => ({ name: `f${i}.txt`, data }));
  a.send({ kind: "browser_file_answer", id: String(dialog.id), files: many });
  a.send({ kind: "browser_file_answer", id: String(dialog.id), files: [{ name: "x.txt", data }] });
  assertMatch(
    (await a.next((m) => m.kind === "error", 30_000)).why as string,
    /no file chooser of this tab is waiting/,
  );
  assertEquals(records(t, "browser_file_dismissed")[0].files, 17);
  a.send({ kind: "browser_input", seq: 2, event: { type: "press", x: 60, y: 232 } });
  const again = await a.next((m) => m.kind === "browser_file_dialog", 30_000);
  a.send({
    kind: "browser_file_answer",
    id: String(again.id),
    files: [{ name: "../hello.txt", data }],
  });
  await page.event((e) => e.what === "file" && e.value === "hello.txt:hi there");
  assert(!b.frames.some((f) => f.type === "json" && f.data.kind === "browser_file_dialog"));

  a.send({ kind: "browser_input", seq: 3, event: { type: "press", x: 40, y: 290 } });
  const dl = await a.next((m) => m.kind === "browser_download", 20_000);
  assertEquals([dl.tab, dl.name, dl.error], [tab, "data.txt", null]);
  assertEquals(atob(dl.data as string), page.download);
  const left = [...Deno.readDirSync(`${t.dir}/state/browser/Acme/default/downloads`)];
  assertEquals(left, [], "the server's copy is removed once it crossed");

  // spec: browser_nav: a watcher's move is refused; the controller's is answered with the state.
  // The history gets a step of its own first: whether the tab's first blank entry survives the
  // first navigation is Chromium's timing, so the test never leans on it.
  a.send({ kind: "browser_input", seq: 4, event: { type: "press", x: 40, y: 436 } });
  await a.next((m) => m.kind === "browser_nav_state" && m.can_back === true, 30_000);
  b.send({ kind: "browser_nav", back: true });
  assertEquals((await b.next((m) => m.kind === "error", 30_000)).what, "browser_nav");
  a.send({ kind: "browser_nav", back: true });
  const moved = await a.next(
    (m) => m.kind === "browser_nav_state" && m.can_forward === true,
    30_000,
  );
  assertEquals(moved.tab, tab);
  await Deno.remove(project, { recursive: true });
});

Deno.test("a killed Chromium is said out loud and the next attach starts a new host; the idle clock closes it", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(browserConfig(project, "idle_close_secs = 10"));
  const a = await t.ready();
  await attach(a, 1, 1);
  const first = records(t, "browser_host_started")[0];
  Deno.kill(first.pid as number, "SIGKILL");
  const failed = await a.next((m) => m.kind === "browser_surface_failed", 30_000);
  assertEquals(failed.tab, 1);
  await attach(a, 1, 2);
  const second = records(t, "browser_host_started");
  assertEquals(second.length, 2);
  assert(second[1].pid !== first.pid, "a new Chromium");

  a.send({ kind: "browser_tabs", seat: SEAT, reply_to: 3 });
  const listed = (await a.next((m) => m.kind === "reply" && m.reply_to === 3, 30_000)).body as {
    tabs: Tabs;
  };
  assertEquals(listed.tabs.up, true);
  assertEquals((listed.tabs as { audio_off?: unknown }).audio_off, null, "PulseAudio runs here");
  assert(typeof listed.tabs.closing_at_ms === "number", "an up host shows its idle deadline");
  a.send({ kind: "browser_detach" });
  const down = await a.next((m) => m.kind === "browser_tabs" && m.up === false, 40_000);
  assertEquals(down.closing_at_ms, null);
  assertEquals(records(t, "browser_host_idle_closed").length, 1);
  await Deno.remove(project, { recursive: true });
});

// spec: binary kind 2 ("The viewed tab's packets go to its controller alone").
Deno.test("page audio crosses as kind-2 PCM to the controller alone", async () => {
  await using page = pageServer();
  const project = await Deno.makeTempDir();
  await using t = await testServer(browserConfig(project));
  const a = await t.ready();
  const b = await t.ready();
  const tab = await openPage(a, `${page.url}/tone`, "tone");
  const started = records(t, "browser_host_started")[0];
  assertEquals(started.audio, "on", "PulseAudio runs here, so the host has sound");
  await attach(a, tab, 1);
  await attach(b, tab, 2);
  a.send({ kind: "browser_control", take: true });
  const loud = await a.nextFrame((f) => {
    if (f.type !== "binary" || f.kind !== 2) return false;
    const v = new DataView(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength);
    if (v.getUint16(3, true) !== tab || v.getUint32(9, true) !== 16000) return false;
    let sum = 0;
    const n = (f.bytes.length - 14) / 2;
    for (let i = 0; i < n; i++) sum += (v.getInt16(14 + i * 2, true) / 32768) ** 2;
    return n > 0 && Math.sqrt(sum / n) > 0.1;
  }, 20_000);
  assertEquals(loud.type, "binary");
  assert(!b.frames.some((f) => f.type === "binary" && f.kind === 2), "a watcher hears nothing");
  await Deno.remove(project, { recursive: true });
});

// spec: browser_view (a refused attach answers {ok:false, why} and is recorded), browser_input
// and browser_control from a connection with no attach; a missing chromium is said.
Deno.test("a missing Chromium is said; unattached input and control are refused and recorded", async () => {
  const project = await Deno.makeTempDir();
  await using t = await testServer(
    browserConfig(project, 'chromium = "/nonexistent/chromium"'),
  );
  assertEquals(
    records(t, "browser_state")[0].why,
    "browser.chromium names /nonexistent/chromium, which is not a file on this machine",
  );
  const a = await t.ready();
  a.send({ kind: "browser_view", seat: SEAT, reply_to: 1 });
  const reply = await a.next((m) => m.kind === "reply", 30_000);
  assertEquals((reply.body as { ok: boolean }).ok, false);
  assertMatch((reply.body as { why: string }).why, /browser\.chromium names \/nonexistent/);
  assertEquals(records(t, "browser_attach_refused").length, 1);

  a.send({ kind: "browser_input", seq: 1, event: { type: "move", x: 1, y: 1 } });
  a.send({ kind: "browser_input", seq: 2, event: { type: "text", text: "pw" } });
  const e = await a.next((m) => m.kind === "error", 30_000);
  assertEquals(e.what, "browser_input");
  assertEquals(records(t, "browser_input_unattached").map((r) => [r.kind, r.chars]), [["text", 2]]);
  a.sendUntyped({ kind: "browser_input", seq: 3, event: { type: "fly" } });
  assertMatch(
    (await a.next((m) => m.kind === "error", 30_000)).why as string,
    /^browser_input: event\.type: expected one of "press", "move", "wheel", "key", "text", got "fly"$/,
  );
  a.send({ kind: "browser_control", take: true });
  assertEquals((await a.next((m) => m.kind === "error", 30_000)).what, "browser_control");
  const ctl = records(t, "browser_control_unattached")[0];
  assertEquals([ctl.take, ctl.has_browser], [true, false]);
  a.sendBinary(new Uint8Array([1, 0, 0, 0]));
  a.send({ kind: "browser_detach" });
  a.send({ kind: "ping" });
  await a.next((m) => m.kind === "pong", 30_000);
  assert(!a.frames.some((f) => f.type === "json" && f.data.kind === "browser_view"));
  await Deno.remove(project, { recursive: true });
});

// "where PulseAudio cannot run, the host says so in its state rather than silently
// sending nothing" - forge started with no pulseaudio on its PATH, under the launcher's flags.
Deno.test("a host whose PulseAudio cannot run says so in its tabs state", async () => {
  const project = await Deno.makeTempDir();
  const bin = await pathWithout("pulseaudio", "pactl", "parec");
  try {
    await using forge = await spawnForge(browserConfig(project), { PATH: bin });
    const a = await forge.connect();
    await attach(a, 1, 1);
    a.send({ kind: "browser_tabs", seat: SEAT, reply_to: 2 });
    const reply = await a.next((m) => m.kind === "reply" && m.reply_to === 2, 30_000);
    const tabs = (reply.body as { tabs: Tabs & { audio_off: string | null } }).tabs;
    assertEquals(tabs.up, true);
    assertMatch(String(tabs.audio_off), /^page audio is off: pulseaudio could not start/);
  } finally {
    await Deno.remove(project, { recursive: true });
    await Deno.remove(bin, { recursive: true });
  }
});
