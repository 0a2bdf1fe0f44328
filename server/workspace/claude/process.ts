/**
 * One `claude` CLI process in stream-json mode, as the original launches it: spawn, the stdout
 * frame stream, the stderr tail, a non-blocking stdin, forge's control requests and the CLI's, and
 * an ending that always reaps the child (stdin EOF, a grace period, then SIGKILL).
 */
import { isDirSync } from "../../path_kind.ts";
import { spawnWords } from "../../words.ts";
import { fileURLToPath } from "node:url";
import { ControlChannel } from "./control.ts";
import { EventQueue } from "./event_queue.ts";
import { InboundControl } from "./inbound.ts";
import { readNdjson, TailBuffer } from "./ndjson.ts";
import { StdinWriter } from "./stdin_writer.ts";
import type { CanUseToolHandler, ClaudeEvent, ClaudeExit, ControlRequestHandler } from "./types.ts";
import type { JsonObject, PermissionMode } from "./types.ts";

/** How to start one CLI process. */
export interface ClaudeSpawnOptions {
  /** The binary; default {@link defaultClaudeBin}. */
  bin?: string;
  /** From `buildArgv`. */
  args: readonly string[];
  cwd: string;
  /** The complete child environment (from `buildChildEnv`); nothing else is inherited. */
  env: Record<string, string>;
  /** Decides `can_use_tool`; without it every tool that asks is denied. */
  canUseTool?: CanUseToolHandler;
  /** Answers other inbound control requests; without it they get an error response. */
  onControlRequest?: ControlRequestHandler;
  /** Told about protocol oddities (malformed control frames, answers that could not be sent). */
  onProblem?: (what: string) => void;
  /** Default timeout of forge's control requests; default 30 s. */
  controlTimeoutMs?: number;
  /** Bytes of stderr kept for failure reports; default 8 KiB. */
  stderrTailBytes?: number;
  /** How long `close()` waits after stdin EOF before signalling; default 5 s, the original's. */
  closeGraceMs?: number;
  /** How long `close()` waits after SIGTERM before SIGKILL; default 2 s. */
  termGraceMs?: number;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `$FORGE_CLAUDE_BIN`, else the pinned binary under tools/toolchain. */
export function defaultClaudeBin(): string {
  const pinned = new URL(
    "../../../tools/toolchain/node_modules/.bin/claude",
    import.meta.url,
  );
  return Deno.env.get("FORGE_CLAUDE_BIN") ?? fileURLToPath(pinned);
}

/** A running CLI. Create with {@link ClaudeProcess.spawn}. */
export class ClaudeProcess {
  /** The child's pid. */
  readonly pid: number;
  /** Resolves once the child is reaped and its stdout and stderr are drained. Never rejects. */
  readonly exited: Promise<ClaudeExit>;
  #child: Deno.ChildProcess;
  #stdin: StdinWriter;
  #control: ControlChannel;
  #inbound: InboundControl;
  #stderr: TailBuffer;
  #events = new EventQueue<ClaudeEvent>();
  #iterated = false;
  #closing: Promise<ClaudeExit> | null = null;
  #graceMs: number;
  #termGraceMs: number;

  /** Spawns the CLI. Throws (naming the binary) when it cannot be started. */
  static spawn(opts: ClaudeSpawnOptions): ClaudeProcess {
    const bin = opts.bin ?? defaultClaudeBin();
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(bin, {
        args: [...opts.args],
        cwd: opts.cwd,
        env: opts.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (e) {
      // A missing folder and a missing program are one errno: which one is said.
      const why = !(e instanceof Deno.errors.NotFound)
        ? spawnWords(e)
        : isDirSync(opts.cwd)
        ? "that program is not there"
        : "that folder is not there";
      throw new Error(`claude: cannot start ${bin} in ${opts.cwd}: ${why}`, { cause: e });
    }
    return new ClaudeProcess(child, opts);
  }

  private constructor(child: Deno.ChildProcess, opts: ClaudeSpawnOptions) {
    this.#child = child;
    this.pid = child.pid;
    this.#graceMs = opts.closeGraceMs ?? 5_000;
    this.#termGraceMs = opts.termGraceMs ?? 2_000;
    this.#stdin = new StdinWriter(child.stdin);
    const send = (line: JsonObject) => this.#stdin.send(line);
    this.#control = new ControlChannel(send, opts.controlTimeoutMs);
    this.#inbound = new InboundControl(
      send,
      opts.canUseTool,
      opts.onControlRequest,
      opts.onProblem,
    );
    this.#stderr = new TailBuffer(opts.stderrTailBytes ?? 8192);
    const stop = new AbortController();
    const stdoutDone = this.#readStdout(child.stdout, stop.signal);
    const stderrDone = this.#stderr.drain(child.stderr);
    this.exited = this.#watch(child, stdoutDone, stderrDone, stop);
  }

  async #watch(
    child: Deno.ChildProcess,
    stdoutDone: Promise<void>,
    stderrDone: Promise<void>,
    stop: AbortController,
  ): Promise<ClaudeExit> {
    const status = await child.status;
    // A grandchild holding the pipes open must not keep us waiting forever.
    const grace = setTimeout(() => stop.abort(), 2_000);
    await stdoutDone;
    clearTimeout(grace);
    if (!stop.signal.aborted) await stderrDone;
    const exit: ClaudeExit = {
      code: status.code,
      signal: status.signal,
      stderrTail: this.#stderr.text(),
    };
    const reason = `claude exited (code ${exit.code}${exit.signal ? `, ${exit.signal}` : ""})`;
    this.#control.close(reason);
    this.#inbound.abortAll(reason);
    await this.#stdin.close();
    return exit;
  }

  async #readStdout(stdout: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
    try {
      for await (const item of readNdjson(stdout, signal)) {
        if (item.kind === "bad_line") {
          this.#events.push(item);
          continue;
        }
        const f = item.frame;
        if (f.type === "control_response" && this.#control.handleResponse(f)) continue;
        if (f.type === "control_request") this.#inbound.handleRequest(f);
        else if (f.type === "control_cancel_request") this.#inbound.handleCancel(f);
        else this.#events.push({ kind: "frame", frame: f });
      }
    } catch { /* aborted after exit, or the pipe broke: the stream is over either way */ }
    this.#events.end();
  }

  /** The stdout stream, in order, until stdout closes. Single consumer: a second call throws.
   * Items arriving before the first call are buffered. */
  events(): AsyncIterableIterator<ClaudeEvent> {
    if (this.#iterated) throw new Error("claude: events() can be consumed only once");
    this.#iterated = true;
    return this.#events;
  }

  /** The last bytes of stderr so far. */
  get stderrTail(): string {
    return this.#stderr.text();
  }

  /**
   * Queues a user turn and returns its uuid. The CLI keeps a top-level `uuid`: it echoes it as
   * `command_lifecycle.command_uuid` (queued/started/completed), lists it in
   * `system/status.user_message_uuids`, and uses it as the transcript line's `uuid`.
   * Throws when `uuid` is not a UUID or stdin is closed.
   */
  sendUserMessage(content: string | JsonObject[], uuid: string = crypto.randomUUID()): string {
    if (!UUID_RE.test(uuid)) {
      throw new Error(`claude user message: ${JSON.stringify(uuid)} is not a UUID`);
    }
    this.#stdin.send({
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      uuid,
    });
    return uuid;
  }

  /** Sends a control request; see {@link ControlChannel.request}. */
  request(subtype: string, body: JsonObject = {}, timeoutMs?: number): Promise<JsonObject> {
    return this.#control.request(subtype, body, timeoutMs);
  }

  /** `initialize` (optional; a cheap readiness probe). `body` carries `hooks`, `agents`... */
  initialize(body: JsonObject = {}, timeoutMs?: number): Promise<JsonObject> {
    return this.request("initialize", body, timeoutMs);
  }

  /** Stops the running turn; its `result` is `error_during_execution`. */
  interrupt(): Promise<JsonObject> {
    return this.request("interrupt");
  }

  setPermissionMode(mode: PermissionMode): Promise<JsonObject> {
    return this.request("set_permission_mode", { mode });
  }

  /** `null` returns to the default model. */
  setModel(model: string | null): Promise<JsonObject> {
    return this.request("set_model", { model });
  }

  getContextUsage(): Promise<JsonObject> {
    return this.request("get_context_usage");
  }

  mcpStatus(): Promise<JsonObject> {
    return this.request("mcp_status");
  }

  /** Sends a signal; a no-op once the child is gone. */
  kill(signal: Deno.Signal = "SIGTERM"): void {
    try {
      this.#child.kill(signal);
    } catch { /* already exited */ }
  }

  /**
   * Ends stdin (queued lines are written first) and waits `closeGraceMs` for the CLI to finish
   * (it completes a running turn first); then SIGTERM, which the CLI answers by ending its own
   * tool processes (a SIGKILL alone would orphan a background Bash), and after `termGraceMs`
   * SIGKILL. Resolves with the exit; idempotent.
   */
  close(): Promise<ClaudeExit> {
    this.#closing ??= (async () => {
      void this.#stdin.close();
      if (await this.#exitsWithin(this.#graceMs)) return await this.exited;
      this.kill("SIGTERM");
      if (await this.#exitsWithin(this.#termGraceMs)) return await this.exited;
      this.kill("SIGKILL");
      return await this.exited;
    })();
    return this.#closing;
  }

  async #exitsWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), ms));
    const first = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    return first !== "late";
  }
}
