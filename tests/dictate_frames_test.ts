import { encodeDictationFrame } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { pinnedFlite } from "./dictate_audio.ts";
import {
  command,
  DICTATE_CONFIG,
  LEAD,
  nextUpdate,
  roundTrip,
  streamTake,
  takeNews,
} from "./dictate_support.ts";
import { testServer, until } from "./harness.ts";

// Socket tier, in-process (the log is readable): bad frames and refusals of the take commands.

Deno.test("spec kind 0: a frame with no take, past 16 KiB or uneven is dropped with a debug record and no answer", async () => {
  await using t = await testServer(DICTATE_CONFIG);
  const c = await t.ready();
  const refused = () =>
    t.log.records.filter((r) => r.event === "binary_frame_refused") as unknown as {
      reason: string;
    }[];
  c.sendBinary(encodeDictationFrame(new Int16Array(320))); // no take
  c.sendBinary(encodeDictationFrame(new Int16Array(8193))); // 16,386 payload bytes
  c.sendBinary(new Uint8Array([0, 1, 2, 3])); // an odd payload is not whole samples
  c.sendBinary(new Uint8Array([9, 1, 2])); // an unknown kind
  await roundTrip(c);
  await until(() => refused().length === 4, 10_000, "four refusal records");
  assertEquals(refused().map((r) => r.reason), [
    "no_take",
    "oversized",
    "short_header",
    "unknown_kind",
  ]);
  assert(refused().every((r) => (r as unknown as { level: string }).level === "debug"));
  assertEquals(c.frames.filter((f) => f.type === "json" && f.data.kind === "error").length, 0);
});

Deno.test("spec dictate_stream: a seat that is not there, a stop with no take and a second take on one connection are refused in words", async () => {
  await using t = await testServer(DICTATE_CONFIG);
  const c = await t.ready();
  const nowhere = { org: "Acme", project: "nope", label: "lead" };
  command(c, {
    dictate_stream: {
      key: nowhere,
      options: { styling: "formal", structure: "prose", context: "general" },
    },
  });
  const err = await c.next((m) => m.kind === "error");
  assertEquals(err.what, "dictate_stream");
  assertEquals(
    err.why,
    "dictate_stream: Acme/nope/lead is not a seat: no project declares it and no session holds it",
  );
  command(c, { dictate_stop: { key: LEAD, submit: true } });
  const stop = await c.next((m) => m.kind === "error");
  assertEquals(stop.why, "dictate_stop: this connection has no live take on Acme/proj/lead");
  command(c, { dictate_stream: { key: LEAD, options: { styling: "loud" } } });
  const bad = await c.next((m) => m.kind === "error");
  assert(String(bad.why).includes("options"), String(bad.why));
  // One connection streams one take at a time (spec: "one connection streams one take at a time").
  streamTake(c, await pinnedFlite("run the tests"), { stop: false });
  await nextUpdate(c, "dictate_started");
  command(c, {
    dictate_stream: {
      key: { ...LEAD, label: "other" },
      options: { styling: "formal", structure: "prose", context: "general" },
    },
  });
  const other = await c.next((m) => m.kind === "error");
  assertEquals(
    other.why,
    "dictate_stream: Acme/proj/other is not a seat: no project declares it and no session holds it",
  );
  command(c, { dictate_stop: { key: LEAD, submit: true } });
  assertEquals((await nextUpdate(c, "dictate_ended")).outcome, {
    landed: { text: "run the tests", truncated: false },
  });
  assertEquals(takeNews(c).includes("dictate_level"), true);
});

Deno.test("spec dictate_start: with [dictate] server_capture off it is refused in words, to that connection", async () => {
  await using t = await testServer(DICTATE_CONFIG);
  const c = await t.ready();
  command(c, { dictate_start: { key: LEAD } });
  const ended = await nextUpdate(c, "dictate_ended");
  assertEquals(ended.outcome, {
    refused: { message: "recording from this machine is off: set [dictate] server_capture = true" },
  });
});

Deno.test("spec set_dictate_device: the pick is echoed as dictate_device_pin to the seat and read on home", async () => {
  await using t = await testServer(DICTATE_CONFIG);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: { session: LEAD } });
  await c.next((m) => m.kind === "snapshot");
  command(c, { set_dictate_device: { key: LEAD, pick: { device: "alsa_input.usb-mic" } } });
  assertEquals((await nextUpdate(c, "dictate_device_pin")).pick, { device: "alsa_input.usb-mic" });
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    dictate: { device: unknown; enabled: boolean };
  };
  assertEquals(home.dictate, {
    ...home.dictate,
    enabled: true,
    device: { device: "alsa_input.usb-mic" },
  });
  command(c, { set_dictate_device: { key: LEAD, pick: "system" } });
  assertEquals((await nextUpdate(c, "dictate_device_pin")).pick, "system");
});

Deno.test("takes on two seats decode side by side and each lands on its own connection", async () => {
  const second =
    `\n[[orgs.projects]]\nname = "proj2"\npath = "/nonexistent/forge-test-project-2"\n`;
  await using t = await testServer(DICTATE_CONFIG.replace("\n[dictate]", `${second}\n[dictate]`));
  const a = await t.ready();
  const b = await t.ready();
  const other = { ...LEAD, project: "proj2" };
  streamTake(a, await pinnedFlite("install the dependencies"), { stop: false });
  streamTake(b, await pinnedFlite("close the terminal"), { stop: false, slot: other });
  await nextUpdate(a, "dictate_started");
  await nextUpdate(b, "dictate_started");
  command(a, { dictate_stop: { key: LEAD, submit: true } });
  command(b, { dictate_stop: { key: other, submit: true } });
  const [ea, eb] = await Promise.all([
    nextUpdate(a, "dictate_ended"),
    nextUpdate(b, "dictate_ended"),
  ]);
  assertEquals(ea.outcome, { landed: { text: "install the dependencies", truncated: false } });
  assertEquals(eb.outcome, { landed: { text: "close the terminal", truncated: false } });
  assertEquals((ea.key as { project: string }).project, "proj");
  assertEquals((eb.key as { project: string }).project, "proj2");
});
