/**
 * Transcript lines shaped like the Claude Code CLI's own (2.1.x session JSONL, see the team's
 * CLI notes: one assistant line per content block, each repeating the message's final usage;
 * user, tool_result, attachment, queue-operation and last-prompt lines around them). For
 * tests and the usage bench; nothing in the server imports it.
 */

/** One API message as a script gives it: what the transcript must report. */
export interface ScriptedMessage {
  id: string;
  requestId: string;
  model: string;
  at: Date;
  input: number;
  output: number;
  cacheCreation: number;
  /** Part of cacheCreation written with the 1-hour lifetime. */
  cacheCreation1h?: number;
  cacheRead: number;
  speed?: "standard" | "fast";
  /** Content blocks; the CLI writes one line per block. Default 1. */
  blocks?: ("thinking" | "text" | "tool_use")[];
  /** Filler text per block, to give lines a realistic size. */
  text?: string;
}

/** Writes one session's lines; subagent sessions set `agentId` (isSidechain lines). */
export class SessionLines {
  readonly lines: string[] = [];
  #parent: string | null = null;
  #n = 0;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    readonly agentId: string | null = null,
  ) {}

  #base(type: string, at: Date): Record<string, unknown> {
    const uuid = `${this.sessionId.slice(0, 8)}-${
      (this.#n++).toString(16).padStart(4, "0")
    }-4000-8000-${this.agentId ?? "000000000000"}`;
    const base: Record<string, unknown> = {
      parentUuid: this.#parent,
      isSidechain: this.agentId !== null,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: "2.1.332",
      gitBranch: "main",
      ...(this.agentId ? { agentId: this.agentId } : {}),
      type,
      uuid,
      timestamp: at.toISOString(),
    };
    this.#parent = uuid;
    return base;
  }

  /** The queue-operation, user prompt and attachment lines that open a turn. */
  prompt(text: string, at: Date): this {
    this.lines.push(JSON.stringify({
      type: "queue-operation",
      operation: "enqueue",
      timestamp: at.toISOString(),
      sessionId: this.sessionId,
      content: text,
    }));
    this.lines.push(JSON.stringify({
      ...this.#base("user", at),
      promptId: `p-${this.#n}`,
      message: { role: "user", content: text },
      permissionMode: "default",
      promptSource: "sdk",
      entrypoint: "sdk-cli",
    }));
    this.lines.push(JSON.stringify({
      ...this.#base("attachment", at),
      attachment: { type: "skill_listing", content: "deep-research, dataviz, update-config" },
    }));
    return this;
  }

  /** The assistant lines of one API message, then a tool_result for each tool_use block. */
  message(m: ScriptedMessage): this {
    const blocks = m.blocks ?? ["text"];
    const usage = {
      input_tokens: m.input,
      cache_creation_input_tokens: m.cacheCreation,
      cache_read_input_tokens: m.cacheRead,
      output_tokens: m.output,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: "standard",
      cache_creation: {
        ephemeral_1h_input_tokens: m.cacheCreation1h ?? 0,
        ephemeral_5m_input_tokens: m.cacheCreation - (m.cacheCreation1h ?? 0),
      },
      inference_geo: "",
      iterations: [],
      speed: m.speed ?? "standard",
    };
    const tools: string[] = [];
    blocks.forEach((kind, i) => {
      const body = m.text ?? "ok";
      const content = kind === "thinking"
        ? { type: "thinking", thinking: body, signature: `sig-${m.id}-${i}` }
        : kind === "text"
        ? { type: "text", text: body }
        : {
          type: "tool_use",
          id: `toolu_${m.id.slice(4)}_${i}`,
          name: "Bash",
          input: { command: `echo ${body.slice(0, 40)}`, description: "Run a command" },
        };
      if (kind === "tool_use") tools.push(content.id as string);
      this.lines.push(JSON.stringify({
        ...this.#base("assistant", m.at),
        message: {
          id: m.id,
          type: "message",
          role: "assistant",
          model: m.model,
          content: [content],
          stop_reason: tools.length > 0 ? "tool_use" : "end_turn",
          stop_sequence: null,
          usage,
        },
        requestId: m.requestId,
      }));
    });
    for (const id of tools) {
      this.lines.push(JSON.stringify({
        ...this.#base("user", m.at),
        message: {
          role: "user",
          content: [{ tool_use_id: id, type: "tool_result", content: m.text ?? "ok" }],
        },
        toolUseResult: { stdout: m.text ?? "ok", stderr: "", interrupted: false },
      }));
    }
    return this;
  }

  /** The line the CLI writes when a turn settles. */
  lastPrompt(text: string): this {
    this.lines.push(JSON.stringify({
      type: "last-prompt",
      lastPrompt: text,
      leafUuid: this.#parent,
      sessionId: this.sessionId,
    }));
    return this;
  }

  /** The file's text: lines joined, ending with a newline as the CLI leaves it. */
  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

/** The CLI's project directory name for a cwd: every non-alphanumeric becomes `-`. */
export function slugFor(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}
