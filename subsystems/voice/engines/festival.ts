import { spawnWords } from "../../../server/subsystem.ts";
import type { Clip, Probe, Speaker } from "./speaker.ts";
import { parseWav } from "./speaker.ts";
import { Lock } from "../../../server/lock.ts";
import { forgeTempDir } from "../../../server/temp_dir.ts";

const APT = "festival festvox-us-slt-hts";

/**
 * Festival as ONE persistent `festival --pipe` process (measured: ~1 s to start, then
 * ~0.1 s a sentence with slt-hts, the best round trip measured, ~337 MiB resident). Clips are
 * rendered one at a time: each is a Scheme form saving the utterance's WAV to a temp file,
 * followed by a marker printed and flushed, so no `stdbuf` is needed. A process that dies is
 * started again on the next clip.
 */
export class FestivalSpeaker implements Speaker {
  readonly id = "festival" as const;
  readonly file = "festival";
  readonly binaries = ["festival"] as const;
  defaultVoice = "cmu_us_slt_arctic_hts";
  #proc: Process | null = null;
  #lock = new Lock();
  #n = 0;

  async probe(): Promise<Probe> {
    try {
      const out = await new Deno.Command("festival", {
        args: ["-b", "(print (voice.list))"],
        stdout: "piped",
        stderr: "null",
      }).output();
      const voices = new TextDecoder().decode(out.stdout).replace(/[()]/g, " ").trim().split(
        /\s+/,
      ).filter((v) => v !== "");
      if (voices.length === 0) {
        return { missing: `festival has no voices (apt-get install ${APT})` };
      }
      if (!voices.includes(this.defaultVoice)) this.defaultVoice = voices[0];
      return { voices };
    } catch (err) {
      return { missing: startFailure(err) };
    }
  }

  render(text: string, voice: string): Promise<Clip> {
    return this.#lock.run(() => this.#render(text, voice));
  }

  close(): void {
    this.#proc?.end();
    this.#proc = null;
  }

  async #render(text: string, voice: string): Promise<Clip> {
    const proc = this.#proc ??= new Process();
    const n = ++this.#n;
    const out = await Deno.makeTempFile({
      dir: await forgeTempDir(),
      prefix: "forge-festival-",
      suffix: ".wav",
    });
    try {
      await Deno.remove(out);
      const marker = `FORGE-DONE-${n}`;
      // Loading a voice costs a moment: the process keeps the last one selected.
      const select = proc.voice === voice ? "" : `(voice_${voice})\n`;
      await proc.send(
        `${select}(utt.save.wave (utt.synth (Utterance Text "${scheme(text)}")) ` +
          `"${out}" (quote riff))\n(format t "${marker}\\n")\n(fflush nil)\n`,
        marker,
      );
      proc.voice = voice;
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(out);
      } catch {
        throw new Error(`festival (voice ${voice}) wrote no audio${proc.lastError()}`);
      }
      return parseWav(bytes, `festival (voice ${voice})`);
    } catch (err) {
      if (proc.dead) this.#proc = null;
      throw err;
    } finally {
      await Deno.remove(out).catch(() => {/* no clip was written: nothing to remove */});
    }
  }
}

/** One running `festival --pipe`: write a form, read stdout up to a marker line. */
class Process {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<string>;
  #stderr = "";
  #buffer = "";
  dead = false;
  /** The voice the process has selected, once a clip selected one. */
  voice: string | null = null;

  constructor() {
    try {
      this.#child = new Deno.Command("festival", {
        args: ["--pipe"],
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (err) {
      throw new Error(startFailure(err));
    }
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (s) => void (this.#stderr = (this.#stderr + s).slice(-400)) }),
    ).catch(() => {/* the pipe closes with the process; its exit is what is reported */});
    this.#child.status.then(() => (this.dead = true));
  }

  async send(forms: string, marker: string): Promise<void> {
    this.#stderr = "";
    await this.#writer.write(new TextEncoder().encode(forms));
    while (!this.#buffer.includes(marker)) {
      const r = await this.#reader.read();
      if (r.done) throw new Error(`festival exited${this.lastError()}`);
      this.#buffer += r.value;
    }
    this.#buffer = this.#buffer.slice(this.#buffer.indexOf(marker) + marker.length);
  }

  /** festival's own last complaint, as ": words", or nothing. */
  lastError(): string {
    const line = this.#stderr.trim().split("\n").filter((l) => l.trim() !== "").at(-1);
    return line ? `: ${line.trim()}` : "";
  }

  end(): void {
    try {
      this.#child.kill();
    } catch { /* already gone */ }
  }
}

function scheme(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

function startFailure(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) {
    return `festival is not installed (apt-get install ${APT})`;
  }
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return "forge may not run festival: set [tts] speaking_model to it and restart forge";
  }
  return `festival could not start: ${spawnWords(err)}`;
}
