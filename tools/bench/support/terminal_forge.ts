/**
 * The forge arm of tools/bench/terminal.ts: forge as its own process (`main.ts`, as the launcher
 * runs it), a seat's terminal, and viewers that are real socket clients decoding kind-4 frames
 * (spec: terminal_view, binary kind 4 and 5, terminal_control).
 */
import {
  decodeTerminalOutput,
  encodeTerminalInput,
  TERMINAL_OUTPUT_KIND,
} from "../../../protocol/terminal_frames.ts";
import { forgeArgs, listening } from "../arms/seat_fixtures.ts";
import {
  type ArmResult,
  deadline,
  echoes,
  ready,
  StreamCheck,
  viewersBurst,
} from "./terminal_arms.ts";

const REPO = new URL("../../../", import.meta.url).pathname;
const SEAT = { org: "Bench", project: "term", label: "lead" };

/** A forge.toml with one project whose lead seat's terminal the viewers attach to. */
function config(dir: string): string {
  return `[gateway]\nport = 0\n[[accounts]]\ndisplay_name = "Bench"\nprovider = "anthropic"\n` +
    `token = "sk-bench"\nconfig_dir = "${dir}/claude"\n[[orgs]]\nname = "Bench"\n` +
    `accounts = ["Bench"]\n[[orgs.projects]]\nname = "term"\npath = "${dir}/term"\n` +
    `[terminal]\nshell = "/bin/bash"\n`;
}

/** A socket client attached to the seat's terminal as a viewer. */
export class Viewer {
  readonly check = new StreamCheck();
  id = 0;
  /** terminal_view frames: the attach's, then one per fresh screen (a resume, or behind). */
  screens = 0;
  /** performance.now() when the terminal_view frame arrived, and the frame. */
  view = Promise.withResolvers<{ at: number; seq: number; screen: string; viewer: number }>();
  #control = Promise.withResolvers<void>();
  #socket: WebSocket;
  #settings = Promise.withResolvers<void>();
  #reply = Promise.withResolvers<{ ok: boolean; id?: number; why?: string }>();
  /** With `keep`, the attach's screen and every byte since, in order: what a client draws. */
  #history: (string | Uint8Array)[] | null = null;

  private constructor(url: string) {
    this.#socket = new WebSocket(url);
    this.#socket.binaryType = "arraybuffer";
    this.#socket.onmessage = (e) => {
      if (e.data instanceof ArrayBuffer) {
        const bytes = new Uint8Array(e.data);
        if (bytes[0] !== TERMINAL_OUTPUT_KIND) return;
        const d = decodeTerminalOutput(bytes);
        if (!d.ok) throw new Error(d.why);
        this.check.feed(d.frame.bytes, d.frame.seq, true);
        this.lastSeq = d.frame.seq;
        this.lastAt = performance.now();
        this.frameBytes += d.frame.bytes.length;
        this.#history?.push(d.frame.bytes);
        return;
      }
      const m = JSON.parse(String(e.data));
      if (m.kind === "settings") this.#settings.resolve();
      else if (m.kind === "reply") this.#reply.resolve(m.body);
      else if (m.kind === "terminal_control") {
        this.view.promise.then((v) => v.viewer === m.controller && this.#control.resolve());
      } else if (m.kind === "terminal_view") {
        // The attach's own screen starts the stream; any later one replaced bytes.
        if (this.screens++ > 0) this.check.screen(m.screen, m.seq);
        this.lastSeq = m.seq;
        this.lastAt = performance.now();
        this.view.resolve({
          at: performance.now(),
          seq: m.seq,
          screen: m.screen,
          viewer: m.viewer,
        });
        this.#history?.push(m.screen);
      }
    };
  }

  /** Connects and attaches; resolves once the attach's terminal_view has arrived. */
  static async attach(url: string, keep = false): Promise<Viewer> {
    const v = new Viewer(url);
    if (keep) v.#history = [];
    await v.#settings.promise;
    v.#socket.send(JSON.stringify({ kind: "terminal_view", seat: SEAT, reply_to: 1 }));
    const body = await v.#reply.promise;
    if (!body.ok) throw new Error(`terminal_view refused: ${body.why}`);
    v.id = body.id!;
    await v.view.promise;
    return v;
  }

  /** The attach's screen and every byte since, up to now (empty unless attached with `keep`). */
  drain(): (string | Uint8Array)[] {
    return this.#history?.splice(0) ?? [];
  }

  /** The newest sequence this viewer can draw: its last frame's, else its screen's. */
  lastSeq = 0;

  /** Bytes of frames received (the burst's, or a late viewer's tail after its screen). */
  frameBytes = 0;

  /** performance.now() when the last frame or screen arrived. */
  lastAt = 0;

  /** Takes the person's control, so this viewer's kind-5 frames reach the shell. */
  takeControl(): Promise<void> {
    this.#socket.send(
      JSON.stringify({ kind: "terminal_control", seat: SEAT, id: this.id, take: true }),
    );
    return this.#control.promise;
  }

  type(text: string): void {
    this.#socket.send(encodeTerminalInput(this.id, new TextEncoder().encode(text)));
  }

  close(): Promise<void> {
    if (this.#socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.#socket.onclose = () => resolve());
    this.#socket.close();
    return closed;
  }
}

/** Starts forge and attaches `count` viewers, the first holding control. */
export async function forgeTerminal(dir: string, count: number, forgeFlags: string[]) {
  await Deno.mkdir(`${dir}/term`, { recursive: true });
  await Deno.writeTextFile(`${dir}/forge.toml`, config(dir));
  const child = new Deno.Command(Deno.execPath(), {
    args: forgeArgs(`${dir}/forge.toml`, { extra: forgeFlags }),
    cwd: REPO,
    // HOME stays (Deno's cache lives under it); the shell's history goes nowhere.
    env: { PS1: "$ ", HISTFILE: "/dev/null" },
    stdout: "piped",
    // forge logs to stderr: a line per subsystem would bury the figures.
    stderr: "null",
  }).spawn();
  const viewers: Viewer[] = [];
  const close = async () => {
    await Promise.all(viewers.map((v) => v.close()));
    child.kill("SIGTERM");
    await child.status;
  };
  let url: string;
  try {
    url = `ws://127.0.0.1:${await listening(child.stdout)}/socket`;
    for (let i = 0; i < count; i++) viewers.push(await Viewer.attach(url, i === 0));
    // Typed only once the take has landed: a watcher's keys are refused.
    await viewers[0].takeControl();
    await deadline(ready(viewers[0].check, (s) => viewers[0].type(s)), () => "no prompt");
  } catch (e) {
    await close();
    throw e;
  }
  return {
    url,
    viewers,
    pid: child.pid,
    /** Keystroke to echo through forge: typed as kind-5 frames, echoed as kind-4 frames. */
    echo: (keys: number) => echoes(viewers[0].check, (s) => viewers[0].type(s), keys),
    /** One burst; `ended` runs the moment every viewer has the end marker, before the checks. */
    burst(
      file: string,
      expected: Uint8Array,
      ended?: () => Promise<unknown>,
    ): Promise<ArmResult> {
      const screens = viewers.map((v) => v.screens);
      return viewersBurst({
        pid: child.pid,
        checks: viewers.map((v) => v.check),
        type: (s) => viewers[0].type(s),
        file,
        expected,
        ended,
        state: (i) => {
          const v = viewers[i];
          return `${v.check.bytes} bytes, ${v.check.gaps} gaps, ` +
            `${v.screens - screens[i]} fresh screens, ending ${JSON.stringify(v.check.last)}`;
        },
      });
    },
    close,
  };
}
