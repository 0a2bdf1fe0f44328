// spec: voice_audio - clips arrive in seq order, numbered per seat in render order; seats render
// side by side; a failed render drops the rest of its batch and the seat's stream goes on.
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import type { SessionUpdate } from "../../protocol/mod.ts";
import { decodePcm, fieldsOf } from "../../protocol/mod.ts";
import type { Clip } from "./engines/speaker.ts";
import { VoiceStreams } from "./queue.ts";

const A = { org: "o", project: "a", label: "lead" };
const B = { org: "o", project: "b", label: "lead" };

/** A render that takes longer for earlier texts, so order can only come from the queue. */
const render = (text: string): Promise<Clip> =>
  new Promise((resolve, reject) => {
    if (text === "boom") return reject(new Error("flite failed (exit 1)"));
    const n = Number(text.replace(/\D/g, ""));
    setTimeout(
      () => resolve({ samples: Int16Array.of(n, -n), sampleRate: 16_000 }),
      (5 - n) * 4,
    );
  });

Deno.test("voice streams: two batches on one seat come out in queue order, seq per seat", async () => {
  const out: SessionUpdate[] = [];
  const streams = new VoiceStreams((u) => out.push(u));
  const first = streams.queue(A, ["a1", "a2"], render, () => true);
  const other = streams.queue(B, ["b1"], render, () => true);
  const second = streams.queue(A, ["a3", "a4"], render, () => true);
  assertEquals(await Promise.all([first, other, second]), [2, 1, 2]);
  const seat = (key: typeof A) =>
    out.map((u) => fieldsOf(u, "voice_audio")).filter((f) => f?.key === key).map((f) => [
      f!.seq,
      decodePcm(f!.pcm)[0],
    ]);
  assertEquals(seat(A), [[0, 1], [1, 2], [2, 3], [3, 4]]);
  assertEquals(seat(B), [[0, 1]]);
  assertEquals(out[0].name, "voice_audio");
  assertEquals(fieldsOf(out[0], "voice_audio")?.sample_rate, 16_000);
});

Deno.test("voice streams: a failed render drops its batch's rest; nobody listening stops it", async () => {
  const out: SessionUpdate[] = [];
  const streams = new VoiceStreams((u) => out.push(u));
  await assertRejects(
    () => streams.queue(A, ["a1", "boom", "a2"], render, () => true),
    /flite failed \(exit 1\)/,
  );
  assertEquals(await streams.queue(A, ["a3"], render, () => true), 1, "the stream goes on");
  assertEquals(out.map((u) => fieldsOf(u, "voice_audio")?.seq), [0, 1]);
  let listening = true;
  const gone = streams.queue(A, ["a1", "a2", "a3"], (t) => {
    listening = false; // the last listener leaves while the first clip renders
    return render(t);
  }, () => listening);
  assertEquals(await gone, 1);
});
