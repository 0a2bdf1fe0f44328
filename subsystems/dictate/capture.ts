import type { DictateDeviceChoice } from "../../protocol/mod.ts";
import { reusedReads } from "../../server/reused_reads.ts";

/**
 * A take on forge's own machine: `parec` records the default input (or the picked device) of the
 * PulseAudio server this process can reach, as the wire's own format (s16le, 16 kHz, mono).
 * spec: dictate_start, set_dictate_device. Refused in words when capture is switched off, when no
 * PulseAudio client is installed, or when no server answers.
 */
export class MachineCapture {
  readonly #child: Deno.ChildProcess;
  #stopped = false;
  /** Resolves when parec's first bytes arrive: the device is being read from then on. */
  readonly #reading = Promise.withResolvers<void>();

  private constructor(child: Deno.ChildProcess, onSamples: (s: Int16Array) => void) {
    this.#child = child;
    (async () => {
      let carry: number | null = null;
      // Each chunk is converted before the next read reuses its memory (server/reused_reads.ts).
      for await (const chunk of reusedReads(child.stdout)) {
        this.#reading.resolve();
        let bytes = chunk;
        if (carry !== null) {
          bytes = new Uint8Array(chunk.length + 1);
          bytes[0] = carry;
          bytes.set(chunk, 1);
          carry = null;
        }
        if (bytes.length % 2 === 1) carry = bytes[bytes.length - 1];
        const n = bytes.length >> 1;
        const view = new DataView(bytes.buffer, bytes.byteOffset, n * 2);
        const out = new Int16Array(n);
        for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, true);
        if (!this.#stopped && n > 0) onSamples(out);
      }
    })().catch(() => {/* the recorder's pipe broke: it exited, which stop() reports */});
  }

  /**
   * Checks that a PulseAudio server answers (`pactl info`), then starts `parec`; rejects with the
   * sentence a person reads when it cannot record.
   */
  static async start(
    device: DictateDeviceChoice | string | null,
    onSamples: (s: Int16Array) => void,
  ): Promise<MachineCapture> {
    let info: Deno.CommandOutput;
    try {
      info = await new Deno.Command("pactl", { args: ["info"], stdout: "null", stderr: "piped" })
        .output();
    } catch {
      throw new Error("no PulseAudio client is installed here (pactl and parec, pulseaudio-utils)");
    }
    if (!info.success) {
      // pactl's own answer ("Connection failure: ...") goes to the log, not to the person.
      const answer = new TextDecoder().decode(info.stderr).trim();
      throw new Error(
        "no PulseAudio server answers on this machine (is PulseAudio or PipeWire's pulse " +
          "server running for forge's user?)",
        { cause: `pactl info answered: ${answer}` },
      );
    }
    const id = device === null || device === "system"
      ? null
      : typeof device === "string"
      ? device
      : device.device;
    const child = new Deno.Command("parec", {
      args: [
        "--format=s16le",
        "--rate=16000",
        "--channels=1",
        "--latency-msec=20",
        ...(id ? [`--device=${id}`] : []),
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const capture = new MachineCapture(child, onSamples);
    // The take starts once the device is actually read (a source streams even in silence), so
    // `dictate_started` means words spoken from then on are heard; a parec that says nothing
    // within 3 s is not waited on further.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      capture.#reading.promise,
      new Promise<void>((r) => (timer = setTimeout(r, 3000))),
    ]);
    clearTimeout(timer);
    return capture;
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
  }
}
