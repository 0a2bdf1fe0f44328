// Spawned tier: forge runs as a process; its seats run the real claude CLI
// against the fake Messages API, scripted to call forge's voice__say. The clips are real flite
// speech, read back with the real PocketSphinx. spec: voice_mode, voice_preview, voice_audio,
// voice_mode_state, session > state.voice_listeners, dictate_models > speaking, speaking_bench,
// speaking_results.
import { decodePcm, HomeSnapshot, type Slot, VoiceAudio, VoiceModeState } from "../protocol/mod.ts";
import { PS_MODEL_DIR } from "../subsystems/dictate/engines/pocketsphinx_ffi.ts";
import { WorkerPool } from "../subsystems/dictate/engines/pool.ts";
import { scoringWords, wordErrors } from "../server/word_errors.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { pathWithout } from "./harness.ts";
import { type Msg, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, until, updateOf } from "./seats_harness.ts";

const SCRIPT = new URL("../fixtures/mcp/voice_script.json", import.meta.url).pathname;
const SAID = "Push the branch to origin. Install the dependencies. Close the terminal.";
const LISTENING = "[Voice] The person is listening";
const STOPPED = "[Voice] The person stopped listening";

/** Every update named `name` the client holds so far, in arrival order. */
function updates(c: ForgeClient, name: string): Msg[] {
  return c.frames.flatMap((f) =>
    f.type === "json" && updateOf(f.data, name) ? [updateOf(f.data, name)!] : []
  );
}
/** How many forged turns on `seat` the client has seen carrying `text`. */
function notes(c: ForgeClient, seat: Slot, text: string): number {
  return updates(c, "chat_appended").filter((u) =>
    JSON.stringify(u.key) === JSON.stringify(seat) && JSON.stringify(u.msg).includes(text)
  ).length;
}
const voiceMode = (c: ForgeClient, key: Slot, on: boolean, explicit = true) =>
  c.send({ kind: "voice_mode", key, on, explicit });

Deno.test("voice: two clients, one listening; notes in and out; clips in seq order read back; preview refused; bench stored", async () => {
  await using world = await seatWorld([{ name: "alpha" }, { name: "beta" }], SCRIPT);
  await Deno.writeTextFile(
    world.configPath,
    "\n[tts]\nenabled = true\n[dictate]\nenabled = true\n",
    {
      append: true,
    },
  );
  const forge = await world.startForge();
  const alpha = world.lead("alpha");
  const beta = world.lead("beta");
  const listener = await forge.ready();
  const viewer = await forge.ready();
  await subscribeSeat(listener, alpha, true);
  const snap = await subscribeSeat(viewer, alpha) as { state: { voice_listeners: number } };
  assertEquals(snap.state.voice_listeners, 0);
  const apiSaw = async (text: string) =>
    (await world.apiRequests() as unknown as { kind: string; body: unknown }[])
      .filter((r) => r.kind === "main" && JSON.stringify(r.body).includes(text)).length;

  // --- with nobody listening, voice__say says so and renders nothing ---------------------------
  command(listener, "prompt", { key: alpha, text: "[[script:sayalone]] go", attachments: [] });
  const alone = toolResultsOf(await untilResult(listener));
  assertEquals(alone[0], {
    text: "Nobody is listening on this seat, so nothing was spoken.",
    isError: false,
  });
  assertEquals(updates(viewer, "voice_audio").length, 0);

  // --- voice_preview without a listener: refused in the core's words ----------------------------
  listener.send({ kind: "voice_preview", key: alpha, voice: null });
  const refused = await listener.next((m) => m.kind === "error");
  assertMatch(String(refused.why), /voice_preview: no client has voice on for Acme\/alpha\/lead/);

  // --- the first listener in: voice_mode_state 1 to both, the [Voice] note reaches the model ----
  voiceMode(listener, alpha, true);
  for (const c of [listener, viewer]) {
    const state = updateOf(
      await c.next((m) => !!updateOf(m, "voice_mode_state")),
      "voice_mode_state",
    )!;
    assertEquals(VoiceModeState.parse(state), { key: alpha, listeners: 1 });
  }
  await until(() => notes(viewer, alpha, LISTENING) === 1, 60_000, "the listening note's row");
  await untilResult(listener);
  assert(await apiSaw(LISTENING) >= 1, "the fake API received the listening note");
  const again = await subscribeSeat(await forge.ready(), alpha) as {
    state: { voice_listeners: number };
  };
  assertEquals(again.state.voice_listeners, 1, "a late attach seeds its control from the record");

  // --- voice__say: both clients receive the clips in seq order; the words read back ------------
  command(listener, "prompt", { key: alpha, text: "[[script:say]] tell me", attachments: [] });
  const said = toolResultsOf(await untilResult(listener));
  assertEquals(said[0], {
    text: "Queued 3 clips for 1 listener; they play in order.",
    isError: false,
  });
  await until(
    () => updates(viewer, "voice_audio").length === 3,
    30_000,
    "three clips at the viewer",
  );
  await until(() => updates(listener, "voice_audio").length === 3, 30_000, "three at the listener");
  const clips = updates(viewer, "voice_audio").map((u) => VoiceAudio.parse(u));
  assertEquals(clips.map((c) => c.seq), [0, 1, 2]);
  assertEquals(updates(listener, "voice_audio").map((u) => u.seq), [0, 1, 2]);
  assertEquals(clips.map((c) => c.sample_rate), [16_000, 16_000, 16_000]);
  const pool = new WorkerPool({ engine: "pocketsphinx", path: PS_MODEL_DIR }, 1);
  try {
    await pool.ready();
    const heard: string[] = [];
    for (const c of clips) heard.push((await pool.transcribe(decodePcm(c.pcm))).text);
    const ref = scoringWords(SAID);
    const wer = wordErrors(ref, scoringWords(heard.join(" "))) / ref.length;
    console.log(`round trip: "${heard.join(" | ")}" WER ${(wer * 100).toFixed(1)}%`);
    assert(wer < 0.25, `round trip WER ${wer} for "${heard.join(" ")}"`);
  } finally {
    pool.close();
  }

  // --- voice_preview with a listener: one fixed line on the same stream; an unknown voice refused --
  listener.send({ kind: "voice_preview", key: alpha, voice: "slt" });
  await until(() => updates(viewer, "voice_audio").length === 4, 30_000, "the preview clip");
  assertEquals(updates(viewer, "voice_audio")[3].seq, 3);
  listener.send({ kind: "voice_preview", key: alpha, voice: "nobody" });
  const unknown = await listener.next((m) => m.kind === "error");
  assertMatch(
    String(unknown.why),
    /voice_preview: flite has no voice "nobody"; its voices are .*rms/,
  );

  // --- a second listener that drops mid-clip changes nothing for the others -----------------------
  const leaving = await forge.ready();
  await subscribeSeat(leaving, alpha);
  voiceMode(leaving, alpha, true);
  await until(() => updates(viewer, "voice_mode_state").at(-1)?.listeners === 2, 10_000, "two");
  command(listener, "prompt", { key: alpha, text: "[[script:say]] once more", attachments: [] });
  await leaving.next((m) => !!updateOf(m, "voice_audio"), 60_000);
  await leaving.close();
  await untilResult(listener);
  await until(() => updates(viewer, "voice_audio").length === 7, 30_000, "all three clips");
  assertEquals(updates(viewer, "voice_audio").map((u) => u.seq), [0, 1, 2, 3, 4, 5, 6]);
  await until(() => updates(viewer, "voice_mode_state").at(-1)?.listeners === 1, 10_000, "one");
  assertEquals(notes(viewer, alpha, STOPPED), 0, "one listener remains: no stop note");

  // --- a text past the bound is refused in words, nothing rendered -------------------------------
  command(listener, "prompt", { key: alpha, text: "[[script:saylong]] ramble", attachments: [] });
  const long = toolResultsOf(await untilResult(listener));
  assertEquals(long[0].isError, true);
  assertMatch(
    long[0].text,
    /voice__say: the text is 2200 characters and one call takes at most 2000/,
  );

  // --- the speaking bench stores a result with the model file and corpus --------------------------
  const models = await forge.ready();
  models.send({ kind: "subscribe", what: "dictate_models" });
  const page = (await models.next((m) => m.kind === "snapshot")).data as Msg;
  const speaking = page.speaking as Msg;
  assertEquals([speaking.speaking_model, speaking.from, speaking.voice], [
    "flite",
    "compiled_pin",
    null,
  ]);
  assert((speaking.voices as string[]).includes("rms"), JSON.stringify(speaking.voices));
  // spec: dictate_models > in_use: one row per model a role runs, the speaking row among them.
  assertEquals((page.in_use as Msg[]).map((r) => [r.role, r.file, r.catalogue]), [
    ["dictation", "en-us.lm.bin", (page.in_use as Msg[])[0].catalogue],
    ["vad", "silero_vad_v5.onnx", (page.in_use as Msg[])[1].catalogue],
    ["speaking", "flite", null],
  ]);
  models.send({ kind: "command", command: "voice_bench_start" });
  await until(
    () =>
      updates(models, "dictate_models_changed").some((u) =>
        ((u.models as Msg).speaking_results as Msg[]).length === 1
      ),
    120_000,
    `a stored speaking result: ${
      JSON.stringify(models.frames.slice(-3).map((f) => f.type === "json" ? f.data : null)).slice(
        0,
        600,
      )
    }`,
  );
  const result = (updates(models, "dictate_models_changed").at(-1)!.models as Msg)
    .speaking_results as Msg[];
  console.log(`speaking bench: ${JSON.stringify(result[0])}`);
  assertEquals([result[0].variant, result[0].file, result[0].voice], ["flite", "flite", "rms"]);
  assertEquals((result[0].corpus as Msg).lines, 8);
  assert((result[0].round_trip_wer as number) < 0.35, String(result[0].round_trip_wer));

  // --- a move to another seat pauses without a note; the explicit off sends the stop note --------
  // Counts are read as "more than before": a note delivered mid-turn is also echoed inside the
  // CLI's own frames, so one note can show in more than one row.
  await subscribeSeat(listener, beta, true);
  voiceMode(listener, alpha, false, false);
  voiceMode(listener, beta, true, false);
  await until(() => notes(listener, beta, LISTENING) > 0, 60_000, "beta's listening note");
  assertEquals(notes(viewer, alpha, STOPPED), 0, "the move sent no stop note");
  voiceMode(listener, beta, false, true);
  await until(() => notes(listener, beta, STOPPED) > 0, 60_000, "beta's stop note");
  const deadline = Date.now() + 60_000;
  while ((await apiSaw(STOPPED)) === 0) {
    if (Date.now() > deadline) throw new Error("the fake API never received the stop note");
    await new Promise((r) => setTimeout(r, 100));
  }

  // --- a dropped listener connection sends the stop note too --------------------------------------
  const dropper = await forge.ready();
  const [listened, stopped] = [notes(listener, beta, LISTENING), notes(listener, beta, STOPPED)];
  voiceMode(dropper, beta, true);
  await until(
    () => notes(listener, beta, LISTENING) > listened,
    60_000,
    "beta's next listening note",
  );
  await dropper.close();
  await until(() => notes(listener, beta, STOPPED) > stopped, 60_000, "the drop's stop note");
  assertEquals(
    notes(viewer, alpha, STOPPED),
    0,
    "alpha still paused: the listener kept its intent",
  );
  await listener.close();
  await until(() => notes(viewer, alpha, STOPPED) > 0, 60_000, "the paused listener's drop");
});

Deno.test("voice: a missing engine is said in preview_error, home voice and voice__say's answer", async () => {
  const bin = await pathWithout("flite"); // the engine is missing
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  await Deno.writeTextFile(
    world.configPath,
    "\n[tts]\nenabled = true\n[dictate]\nenabled = true\n",
    {
      append: true,
    },
  );
  try {
    const forge = await world.startForge({ PATH: bin });
    const alpha = world.lead("alpha");
    const c = await forge.ready();
    await subscribeSeat(c, alpha, true);
    voiceMode(c, alpha, true);
    await until(() => notes(c, alpha, LISTENING) > 0, 60_000, "the listening note");
    c.send({ kind: "voice_preview", key: alpha, voice: null });
    const refused = await c.next((m) => m.kind === "error");
    const missing = "flite is not installed (apt-get install flite)";
    assertEquals(refused.why, `voice_preview: ${missing}`);

    const reader = await forge.ready();
    reader.send({ kind: "subscribe", what: "home" });
    const home = (await reader.next((m) => m.kind === "snapshot" && m.subject === "home"))
      .data as { voice: Msg };
    assertEquals(home.voice, { enabled: true, models_dir: null, speaking_model: "flite", missing });
    // The row is the wire's own shape: protocol/'s schema takes it (it once refused both fields).
    assert(HomeSnapshot.shape.voice.safeParse(home.voice).success, "home voice fits its schema");
    reader.send({ kind: "subscribe", what: "dictate_models" });
    const page = (await reader.next((m) => m.kind === "snapshot" && m.subject === "dictate_models"))
      .data as { speaking: Msg };
    assertEquals(page.speaking.preview_error, missing);
    assertEquals((page.speaking.active as Msg).installed, false);
    assertEquals(page.speaking.snapshot, {
      role: "speaking",
      file: "flite",
      state: { failed: missing },
    });

    await untilResult(c);
    command(c, "prompt", { key: alpha, text: "[[script:say]] tell me", attachments: [] });
    const said = toolResultsOf(await untilResult(c));
    assertEquals(said[0], { text: `voice__say: nothing was spoken: ${missing}`, isError: true });
    assertEquals(updates(c, "voice_audio").length, 0);
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});

Deno.test("voice: [tts] speaking_model picks festival, which runs under the launcher's flags", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  await Deno.writeTextFile(
    world.configPath,
    '\n[tts]\nenabled = true\nspeaking_model = "festival"\n',
    { append: true },
  );
  const forge = await world.startForge();
  const alpha = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, alpha, true);
  voiceMode(c, alpha, true);
  c.send({ kind: "voice_preview", key: alpha, voice: null });
  const clip = VoiceAudio.parse(
    updateOf(await c.next((m) => !!updateOf(m, "voice_audio"), 60_000), "voice_audio"),
  );
  assertEquals([clip.seq, clip.sample_rate], [0, 32_000], "festival slt-hts renders at 32 kHz");
  assert(decodePcm(clip.pcm).length > 32_000, "over a second of speech");
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    voice: Msg;
  };
  assertEquals([home.voice.speaking_model, home.voice.missing], ["festival", null]);
});
