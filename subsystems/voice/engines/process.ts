import { spawnWords } from "../../../server/subsystem.ts";
import type { Clip, Probe, Speaker, SpeakerId } from "./speaker.ts";
import { parseWav } from "./speaker.ts";

/**
 * An engine run as one child process per sentence, its WAV read from stdout: Debian's flite
 * (voice rms at 16 kHz, ~0.1 s a sentence, measured) and espeak-ng (22,050 Hz). The
 * process runs beside the event loop, so a render never blocks other seats.
 */
class ProcessSpeaker implements Speaker {
  constructor(
    readonly id: SpeakerId,
    readonly file: string,
    readonly defaultVoice: string,
    private readonly apt: string,
    private readonly args: (text: string, voice: string) => string[],
    private readonly listVoices: (out: string) => string[],
    private readonly listArgs: string[],
  ) {}

  get binaries(): readonly string[] {
    return [this.file];
  }

  async probe(): Promise<Probe> {
    try {
      const out = await this.#run(this.listArgs);
      const voices = this.listVoices(new TextDecoder().decode(out));
      return voices.length > 0 ? { voices } : { missing: `${this.file} lists no voices` };
    } catch (err) {
      return { missing: (err as Error).message };
    }
  }

  async render(text: string, voice: string): Promise<Clip> {
    const out = await this.#run(this.args(text, voice));
    return parseWav(out, `${this.file} (voice ${voice})`);
  }

  close(): void {}

  async #run(args: string[]): Promise<Uint8Array> {
    let result: Deno.CommandOutput;
    try {
      result = await new Deno.Command(this.file, { args, stdout: "piped", stderr: "piped" })
        .output();
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        throw new Error(`${this.file} is not installed (apt-get install ${this.apt})`);
      }
      if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
        throw new Error(
          `forge may not run ${this.file}: set [tts] speaking_model to it and restart forge`,
        );
      }
      throw new Error(`${this.file} could not start: ${spawnWords(err)}`, { cause: err });
    }
    if (!result.success) {
      const why = new TextDecoder().decode(result.stderr).trim().split("\n")[0];
      throw new Error(`${this.file} failed (exit ${result.code})${why ? `: ${why}` : ""}`);
    }
    return result.stdout;
  }
}

/** Debian flite: its built-in voices (`flite -lv`); rms is the one the recogniser reads best. */
export function fliteSpeaker(): Speaker {
  return new ProcessSpeaker(
    "flite",
    "flite",
    "rms",
    "flite",
    (text, voice) => ["-voice", voice, "-t", text, "-o", "/dev/stdout"],
    (out) => out.replace(/^.*?:/s, "").trim().split(/\s+/).filter((v) => v !== ""),
    ["-lv"],
  );
}

/** Debian espeak-ng: ~100 languages; a voice is a language id (`espeak-ng --voices`). */
export function espeakSpeaker(): Speaker {
  return new ProcessSpeaker(
    "espeak-ng",
    "espeak-ng",
    "en-us",
    "espeak-ng",
    (text, voice) => ["-v", voice, "--stdout", "--", text],
    (out) =>
      out.split("\n").slice(1).map((line) => line.trim().split(/\s+/)[1]).filter((v) =>
        typeof v === "string" && v !== ""
      ),
    ["--voices"],
  );
}
