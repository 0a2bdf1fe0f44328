import { DICTATION_FRAME_SAMPLES, DICTATION_SAMPLE_RATE } from "../../../../protocol/mod.ts";

/**
 * The browser's microphone as the wire's dictation frames: getUserMedia, an AudioContext running
 * at 16 kHz (the browser resamples the device to it), and an AudioWorklet that turns each 20 ms
 * (320 samples) into i16 and posts it to the page. spec: Binary messages ("one dictation frame per
 * 20 ms of speech", i16 mono 16 kHz).
 */
const WORKLET = `
class ForgeTap extends AudioWorkletProcessor {
  constructor() { super(); this.buf = new Int16Array(${DICTATION_FRAME_SAMPLES}); this.n = 0; }
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (ch) for (let i = 0; i < ch.length; i++) {
      const s = Math.max(-1, Math.min(1, ch[i]));
      this.buf[this.n++] = s < 0 ? s * 0x8000 : s * 0x7fff;
      if (this.n === this.buf.length) {
        this.port.postMessage(this.buf, [this.buf.buffer]);
        this.buf = new Int16Array(${DICTATION_FRAME_SAMPLES});
        this.n = 0;
      }
    }
    return true;
  }
}
registerProcessor("forge-tap", ForgeTap);
`;

/**
 * What the microphone has handed on, and how often it was opened and released, for the browser
 * tests and a person at the console.
 */
export const micStats = { frames: 0, opened: 0, closed: 0 };

/** A running capture; `stop` releases the microphone. */
export interface Mic {
  stop(): Promise<void>;
}

/** Opens the microphone and hands every 20 ms frame to `onFrame`. Throws in forge's words. */
export async function openMic(onFrame: (samples: Int16Array) => void): Promise<Mic> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new Error("this page has no microphone access (it needs a secure or loopback origin)");
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false },
    });
  } catch (err) {
    const name = err instanceof DOMException ? err.name : "";
    throw new Error(
      name === "NotAllowedError"
        ? "the browser refused the microphone; allow it for this page and press again"
        : "no microphone could be opened",
    );
  }
  micStats.opened++;
  const context = new AudioContext({ sampleRate: DICTATION_SAMPLE_RATE });
  const url = URL.createObjectURL(new Blob([WORKLET], { type: "text/javascript" }));
  try {
    await context.audioWorklet.addModule(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  const source = context.createMediaStreamSource(stream);
  const tap = new AudioWorkletNode(context, "forge-tap");
  tap.port.onmessage = (e: MessageEvent<Int16Array>) => {
    micStats.frames++;
    onFrame(e.data);
  };
  source.connect(tap);
  // A node nothing pulls is not run: the tap writes silence to the output, which keeps it pulled.
  tap.connect(context.destination);
  return {
    async stop() {
      tap.port.onmessage = null;
      source.disconnect();
      for (const track of stream.getTracks()) track.stop();
      micStats.closed++;
      await context.close();
    },
  };
}
