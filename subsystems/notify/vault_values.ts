import type { SessionUpdate } from "../../protocol/mod.ts";

/** forge's own vault tools (`mcp__forge__vault__read`, ...): what each hands the agent or takes. */
const VAULT_TOOL = /(?:^|__)vault__(read|attachment|create|update)$/;
/** How many values are kept: the newest, so a long-lived server's memory stays bounded. */
const KEPT = 500;

type Fields = Record<string, unknown>;
const obj = (v: unknown): Fields =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as Fields : {};
const list = (v: unknown): Fields[] => (Array.isArray(v) ? v.map(obj) : []);

/**
 * The values that crossed between a seat's agent and the person's vault, read off the stream so
 * no later push says them (docs/notify.md "What a push says"): the field a `vault__read` or
 * `vault__attachment` call was answered with (a password the agent may then type into a Bash
 * command) and the values a `vault__create` or `vault__update` call set. A vault card names the
 * item and never a value; these are the only places a value crosses the stream. Kept in memory
 * only, never written down.
 */
export class VaultValues {
  /** The read calls whose results are vault values, by tool_use id. */
  readonly #reads = new Set<string>();
  readonly #values: string[] = [];

  read(update: SessionUpdate): void {
    if (update.name !== "chat_appended") return;
    const msg = obj(obj(update.fields).msg);
    const blocks = list(obj(msg.message).content);
    if (msg.type === "assistant") {
      for (const b of blocks) if (b.type === "tool_use") this.#call(b);
    } else if (msg.type === "user") {
      for (const b of blocks) {
        if (b.type !== "tool_result" || !this.#reads.delete(String(b.tool_use_id))) continue;
        if (b.is_error !== true) this.#keep(resultText(b.content));
      }
    }
  }

  /** Every value seen, the newest last. */
  values(): readonly string[] {
    return this.#values;
  }

  #call(block: Fields): void {
    const verb = VAULT_TOOL.exec(String(block.name))?.[1];
    const input = obj(block.input);
    if (verb === "read" || verb === "attachment") {
      this.#reads.add(String(block.id));
      // A call whose answer never came (cancelled) is forgotten once KEPT newer ones wait.
      if (this.#reads.size > KEPT) this.#reads.delete(this.#reads.values().next().value!);
    }
    const set = verb === "create" ? obj(input.fields) : verb === "update" ? obj(input.set) : {};
    for (const v of Object.values(set)) if (typeof v === "string") this.#keep(v);
  }

  /** A value, and each line of a many-lined one (an attachment), a line being what a push cuts. */
  #keep(text: string): void {
    const lines = text.includes("\n") ? text.split("\n").map((l) => l.trim()) : [];
    for (const v of [text, ...lines]) if (v.length >= 4) this.#values.push(v);
    this.#values.splice(0, Math.max(0, this.#values.length - KEPT));
  }
}

/** A tool_result's text: a string, or the text blocks of a content list. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content).filter((b) => b.type === "text").map((b) => String(b.text)).join("\n");
}
