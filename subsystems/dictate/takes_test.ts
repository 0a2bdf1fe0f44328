import type { SessionUpdate } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import { assertEquals } from "../../tests/assert.ts";
import type { Transcriber } from "./engines/engine.ts";
import { peakDb, TakeBook, type TakeDeps } from "./takes.ts";

// The take book against a fake engine (a promise the test resolves): the lifecycle rules without
// a model. The real engines are the spawned tests' (tests/dictate_takes_test.ts).

const SLOT = { org: "o", project: "p", label: "lead" };
const AXES = { styling: "verbatim", structure: "as_spoken", context: "general" } as const;

function harness(minutes = 30) {
  const sent: { conn: number; update: SessionUpdate }[] = [];
  const landed: string[] = [];
  let release: (text: string) => void = () => {};
  const engine: Transcriber = {
    model: { engine: "pocketsphinx", path: "/fake" },
    ready: () => Promise.resolve(),
    transcribe: () =>
      new Promise((resolve) => {
        release = (text) => resolve({ text, stages: { model_load_ms: 0, decode_ms: 0 } });
      }),
    close: () => {},
  };
  const deps: TakeDeps = {
    emitTo: (conn, update) => sent.push({ conn, update }),
    engine: () => engine,
    vad: () => null,
    maxCaptureMinutes: () => minutes,
    normalizer: () => true,
    land: (_slot, text) => landed.push(text),
    log: memoryLogger(),
  };
  return { book: new TakeBook(deps), sent, landed, release: (t: string) => release(t) };
}

const loud = (n: number) => new Int16Array(n).fill(8000);

Deno.test("takes: past [dictate] max_capture_minutes the audio is cut and the landing says truncated", async () => {
  const h = harness(1);
  h.book.stream(1, SLOT, AXES, "composer");
  for (let i = 0; i < 3001; i++) h.book.frame(1, loud(320)); // 60.02 s of audio
  const done = h.book.stop(1, SLOT, true);
  await Promise.resolve();
  h.release("run the tests");
  await done;
  const ended = h.sent.at(-1)!.update.fields as { outcome: unknown };
  assertEquals(ended.outcome, { landed: { text: "run the tests", truncated: true } });
});

Deno.test("takes: a connection that drops while its take decodes lands nothing and is sent nothing", async () => {
  const h = harness();
  h.book.stream(1, SLOT, AXES, "composer");
  h.book.frame(1, loud(320));
  const done = h.book.stop(1, SLOT, true);
  const before = h.sent.length;
  h.book.drop(1);
  h.release("run the tests");
  await done;
  assertEquals(h.landed, []);
  assertEquals(h.sent.length, before);
  // The seat is free for the next take.
  assertEquals(h.book.stream(2, SLOT, AXES, null), true);
});

Deno.test("takes: a level reading every 100 ms, null when the frames are digital silence", () => {
  const h = harness();
  h.book.stream(1, SLOT, AXES, null);
  for (let i = 0; i < 5; i++) h.book.frame(1, new Int16Array(320));
  for (let i = 0; i < 5; i++) h.book.frame(1, loud(320));
  const levels = h.sent.filter((s) => s.update.name === "dictate_level").map((s) =>
    (s.update.fields as { peak_db: number | null }).peak_db
  );
  assertEquals(levels, [null, peakDb(8000)]);
});
