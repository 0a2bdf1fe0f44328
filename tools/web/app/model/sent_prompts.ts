import type { CliFrame, ErrorFrame } from "../../../../protocol/mod.ts";
import type { Attached } from "./attachments.ts";

/**
 * The words this page sent as prompts that forge has neither accepted nor refused yet, oldest
 * first. spec: the forged turn ("a reader's own send ... forge forges the user turn itself", with
 * source `you`) is a prompt's acceptance; a refusal is an `error` naming the seat, sent to the
 * connection that pressed alone (What a client receives > error). forge answers one connection's
 * messages in order, so the oldest words waiting are the ones an answer is about. The composer
 * clears its box at the press and puts the words back, with the images they carried, when they
 * are refused (`returned`).
 */
export class SentPrompts {
  #waiting: { text: string; attachments: Attached[] }[] = [];
  /** Words forge refused, for the composer to put back; null once it took them. */
  returned: { text: string; why: string; attachments: Attached[] } | null = null;

  /** The page sent `text` as a prompt, carrying `attachments`. */
  sent(text: string, attachments: Attached[] = []): void {
    this.#waiting = [...this.#waiting, { text, attachments }];
  }

  /** A chat frame of the seat: a forged `you` turn carrying words still waiting accepts them. */
  heard(frame: CliFrame): void {
    if (frame.type !== "user" || frame.source !== "you") return;
    const text = promptText(frame);
    const at = text === null ? -1 : this.#waiting.findIndex((w) => w.text === text);
    if (at >= 0) this.#waiting = this.#waiting.filter((_, i) => i !== at);
  }

  /**
   * An error frame about this seat: a refused prompt (its `why` names the command first,
   * `prompt: <seat>: ...`) hands the oldest words waiting back. Answers whether it did.
   */
  refused(m: ErrorFrame): boolean {
    const prompt = m.what === "prompt" || m.why.startsWith("prompt: ");
    if (!prompt || this.#waiting.length === 0) return false;
    const [{ text, attachments }, ...rest] = this.#waiting;
    this.#waiting = rest;
    this.returned = { text, why: m.why.replace(/^prompt: /, ""), attachments };
    return true;
  }

  /** The composer put the returned words back in its box. */
  took(): void {
    this.returned = null;
  }

  /** A new connection: no answer to a press made on the old one will come on it. */
  forget(): void {
    this.#waiting = [];
  }

  /** How many sent prompts wait for forge's answer. */
  get waiting(): number {
    return this.#waiting.length;
  }
}

/** The words of a forged prompt: its string content, or its text block's. */
function promptText(frame: CliFrame): string | null {
  const message = frame.message;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return null;
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  for (const block of content) {
    if (typeof block === "object" && block !== null && !Array.isArray(block)) {
      if (block.type === "text" && typeof block.text === "string") return block.text;
    }
  }
  return null;
}
