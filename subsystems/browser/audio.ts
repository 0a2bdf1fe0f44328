import { encodeBrowserAudio } from "../../protocol/mod.ts";
import { reusedReads } from "../../server/reused_reads.ts";
import type { Host } from "../../server/subsystem.ts";
import type { Tab } from "./tab.ts";

/** The PCM a host's sink is read at: 16 kHz mono i16 (measured: `parec` captures it so). */
const RATE = 16_000;
const CHANNELS = 1;

/** What a host's audio is: Chromium's environment, a sentence when there is none, a stop. */
export interface HostAudio {
  env: Record<string, string>;
  note: string | null;
  /** Starts reading the sink once Chromium runs; packets go to `deliver`. */
  start(deliver: (pcm: Uint8Array) => void): void;
  stop(): void;
}

/** What the audio reads of a host (a BrowserHost, host.ts): its id, key and tabs. */
export interface AudioBrowser {
  readonly id: number;
  readonly key: string;
  readonly tabs: ReadonlyMap<number, Tab>;
}

const none = (note: string): HostAudio => ({
  env: {},
  note,
  start: () => {},
  stop: () => {},
});

async function run(cmd: string, args: string[], env: Record<string, string>) {
  try {
    const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder().decode(out.stdout).trim();
    const err = new TextDecoder().decode(out.stderr).trim();
    return { ok: out.success, text, err };
  } catch (e) {
    return { ok: false, text: "", err: String(e) };
  }
}

/**
 * Page audio (spec: binary kind 2): one PulseAudio daemon of forge's own (its
 * runtime dir under the state dir), one null sink per host named in Chromium's PULSE_SINK, and
 * `parec` reading the sink's monitor as 16 kHz mono PCM. A sink is per Chromium process, not per
 * tab, so a profile's sound is every tab's: each packet goes to the controller of each tab of the
 * profile (a watcher is sent none), dropped when that controller is behind. Where PulseAudio
 * cannot run, the host says so (`browser_audio_off` and the host's `audioNote`).
 */
export class PageAudio {
  #daemon: Promise<string | null> | null = null;
  #seq = new WeakMap<Tab, number>();

  constructor(private readonly host: Host) {}

  get #runtime(): string {
    return `${this.host.stateDir}/pulse`;
  }

  get #server(): string {
    return `unix:${this.#runtime}/pulse/native`;
  }

  /** Starts forge's PulseAudio once; null when it runs, else why not. */
  #ensureDaemon(): Promise<string | null> {
    this.#daemon ??= (async () => {
      await Deno.mkdir(this.#runtime, { recursive: true, mode: 0o700 });
      const env = { XDG_RUNTIME_DIR: this.#runtime, PULSE_SERVER: this.#server };
      if ((await run("pactl", ["info"], env)).ok) return null;
      const started = await run("pulseaudio", [
        "-D",
        "-n",
        "--exit-idle-time=-1",
        "--load=module-native-protocol-unix",
        "--load=module-always-sink",
      ], env);
      if (!started.ok && !(await run("pactl", ["info"], env)).ok) {
        return `pulseaudio could not start: ${started.err.split("\n").at(-1) || "no reason given"}`;
      }
      return null;
    })();
    return this.#daemon;
  }

  /** The audio of one host start. */
  async forHost(browser: AudioBrowser): Promise<HostAudio> {
    const why = await this.#ensureDaemon();
    if (why) return this.#off(browser, why);
    const env = { XDG_RUNTIME_DIR: this.#runtime, PULSE_SERVER: this.#server };
    const sink = `forge_${browser.id}`;
    const loaded = await run("pactl", [
      "load-module",
      "module-null-sink",
      `sink_name=${sink}`,
    ], env);
    if (!loaded.ok) return this.#off(browser, `the null sink would not load: ${loaded.err}`);
    const module = loaded.text;
    let parec: Deno.ChildProcess | null = null;
    return {
      env: { PULSE_SERVER: this.#server, PULSE_SINK: sink },
      note: null,
      start: (deliver) => {
        try {
          parec = new Deno.Command("parec", {
            args: [
              "-d",
              `${sink}.monitor`,
              "--format=s16le",
              `--rate=${RATE}`,
              `--channels=${CHANNELS}`,
              "--latency-msec=20",
            ],
            env,
            stdin: "null",
            stdout: "piped",
            stderr: "null",
          }).spawn();
        } catch (err) {
          this.host.log.warn("browser_audio_off", { profile: browser.key, why: String(err) });
          return;
        }
        (async () => {
          // Samples are two bytes: a chunk split mid-sample carries its odd byte to the next.
          let carry = new Uint8Array(0);
          try {
            // Copied into `all` before the next read reuses its memory (server/reused_reads.ts).
            for await (const chunk of reusedReads(parec!.stdout)) {
              const all = new Uint8Array(carry.length + chunk.length);
              all.set(carry);
              all.set(chunk, carry.length);
              const even = all.length - (all.length % 2);
              if (even > 0) deliver(all.subarray(0, even));
              carry = all.slice(even);
            }
          } catch { /* the reader closed */ }
        })();
      },
      stop: () => {
        try {
          parec?.kill("SIGKILL");
        } catch { /* gone */ }
        void run("pactl", ["unload-module", module], env);
      },
    };
  }

  #off(browser: AudioBrowser, why: string): HostAudio {
    const note = `page audio is off: ${why}`;
    this.host.log.info("browser_audio_off", { profile: browser.key, why: note });
    return none(note);
  }

  /** One PCM chunk of a host: a kind-2 packet to each tab's controller. */
  deliver(browser: AudioBrowser, pcm: Uint8Array): void {
    for (const tab of browser.tabs.values()) {
      if (tab.viewers.controller === null) continue;
      const seq = (this.#seq.get(tab) ?? 0) + 1;
      this.#seq.set(tab, seq);
      tab.viewers.binaryController(encodeBrowserAudio({
        profile: browser.id,
        tab: tab.number,
        seq,
        rate: RATE,
        channels: CHANNELS,
        samples: pcm,
      }));
    }
  }

  /** Ends forge's PulseAudio at shutdown. */
  async stop(): Promise<void> {
    if (!this.#daemon || (await this.#daemon) !== null) return;
    await run("pulseaudio", ["--kill"], {
      XDG_RUNTIME_DIR: this.#runtime,
      PULSE_SERVER: this.#server,
    });
  }
}
