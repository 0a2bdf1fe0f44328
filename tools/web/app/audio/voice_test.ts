import { assertEquals } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { encodePcm } from "../../../../protocol/mod.ts";
import { MISSING_WAIT_MS, type Output, VoicePlayer } from "./voice.ts";

const seat = { org: "Acme", project: "alpha", label: "lead" };
const pcm = encodePcm(new Int16Array([1, 2, 3, 4]));

function world() {
  const played: number[] = [];
  const said: (string | null)[] = [];
  const output: Output = { open() {}, close() {}, play: (seq) => void played.push(seq) };
  const clock = new ManualClock();
  const voice = new VoicePlayer(output, clock, (w) => said.push(w));
  voice.listen(seat);
  said.length = 0;
  return { voice, clock, played, said };
}

Deno.test("voice: clips play in seq order; one held behind a late one plays when it lands", () => {
  const w = world();
  w.voice.clip(seat, 1, 16000, pcm);
  w.voice.clip(seat, 3, 16000, pcm);
  assertEquals(w.played, [1]);
  w.voice.clip(seat, 2, 16000, pcm);
  assertEquals(w.played, [1, 2, 3]);
  w.clock.advanceBy(MISSING_WAIT_MS * 2);
  assertEquals(w.said, []);
});

Deno.test("voice: a clip that never arrives is given up on in words after the wait", () => {
  const w = world();
  w.voice.clip(seat, 1, 16000, pcm);
  w.voice.clip(seat, 3, 16000, pcm);
  w.clock.advanceBy(MISSING_WAIT_MS - 1);
  assertEquals(w.played, [1]);
  assertEquals(w.said, []);
  w.clock.advanceBy(1);
  assertEquals(w.played, [1, 3]);
  assertEquals(w.said, ["Clip 2 of the speech never arrived; playing on from clip 3."]);
  // The lost clip arriving late is not played out of order.
  w.voice.clip(seat, 2, 16000, pcm);
  assertEquals(w.played, [1, 3]);
});

Deno.test("voice: three clips past a gap move on at once, naming the clips missed", () => {
  const w = world();
  w.voice.clip(seat, 1, 16000, pcm);
  for (const seq of [5, 6, 7, 8]) w.voice.clip(seat, seq, 16000, pcm);
  assertEquals(w.played, [1, 5, 6, 7, 8]);
  assertEquals(w.said, ["Clips 2-4 of the speech never arrived; playing on from clip 5."]);
});
