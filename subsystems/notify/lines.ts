import type { Wire } from "../../protocol/mod.ts";
import { SECRET_KEY } from "../../server/config/secrets.ts";

// What a push says of one need: its one line. Built only from what the ask's card draws, which
// carries no secret (a vault card names the item and the field, never a value); a settings
// write names the key and says the value only where it cannot be a credential (sayable), and a
// tool's input shows the card's title (the command, the path, the URL), never a file's content.
// What an agent itself wrote there (a token in a command) is scrubbed after (push.ts scrub).

/** The first `n` characters of a text's first line, with an ellipsis where it was cut. */
export function clip(text: string, n = 100): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > n ? `${line.slice(0, n)}…` : line;
}

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const obj = (v: unknown): Fields =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as Fields : {};

/**
 * Whether a settings write may say a key's new value: never a credential's, never one under an
 * `env` table (where credentials live under any name: a DATABASE_URL holds its password) and
 * never a whole table (it may hold either).
 */
function sayable(path: string, value: unknown): boolean {
  if (SECRET_KEY.test(path) || path.split(/[.[\]]+/).includes("env")) return false;
  return value === null || typeof value !== "object" ||
    (Array.isArray(value) && value.every((x) => x === null || typeof x !== "object"));
}

/** A permission ask: the tool and the first 100 characters of what it would do. */
export function permissionLine(request: Fields): string {
  const call = obj(request.tool_call);
  const tool = str(obj(call.meta).tool_name) || "a tool";
  const title = str(call.title);
  const detail = title.startsWith(`${tool}: `) ? title.slice(tool.length + 2) : "";
  return detail ? `${tool}: ${clip(detail)}` : tool;
}

/** A question ask: the question. */
export function questionLine(request: Fields): string {
  return clip(str(obj(request.prompt).question)) || "a question";
}

/** A held ask's line, by its kind (server/subsystem.ts HELD_KINDS). */
export function heldLine(kind: string, card: Fields): string {
  switch (kind) {
    case "settings_write": {
      const keys = Array.isArray(card.keys) ? card.keys.map(obj) : [];
      const said = keys.slice(0, 2).map((k) =>
        sayable(str(k.path), k.after)
          ? `change ${str(k.path)} to ${valueWords(k.after as Wire)}`
          : `change ${str(k.path)}`
      );
      const more = keys.length > 2 ? ` (+${keys.length - 2} more)` : "";
      return clip(said.join(", ") + more) || "change forge.toml";
    }
    case "vault_ask": {
      const tool = str(card.tool);
      const attachment = str(obj(card.attachment).name);
      const what = tool === "search"
        ? str(card.query)
        : attachment
        ? `${attachment} of ${str(card.item)}`
        : str(card.item);
      return clip(`vault: ${tool} ${what}`);
    }
    case "slack_post": {
      const draft = obj(card.draft);
      return clip(
        `slack: ${str(draft.action)} in ${str(draft.conversation)} (${str(draft.workspace)})`,
      );
    }
    case "document_hand_off":
      return clip(`document: ${str(card.path)}: ${str(card.reason)}`);
    case "browser_hand_off":
      return clip(`browser: ${str(card.reason)}`);
    case "terminal_hand_off":
      return clip(`terminal: ${str(card.reason)}`);
    default:
      return kind.replaceAll("_", " ");
  }
}

function valueWords(v: Wire): string {
  return typeof v === "string" ? v : JSON.stringify(v ?? null);
}

/** A failed turn: the CLI's own words, first line. */
export function failedLine(message: string): string {
  return clip(message) || "the turn failed";
}

/**
 * The session died: forge's sentence up to the stderr tail (which a program's output fills and
 * forge cannot vouch for).
 */
export function diedLine(message: string): string {
  return `the session ended: ${clip(message.split("; stderr:")[0])}`;
}

/** How long a finished turn ran, in words. */
export function finishedLine(ms: number): string {
  const s = Math.round(ms / 1000);
  const words = s >= 3600
    ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`
    : s >= 60
    ? `${Math.floor(s / 60)} min ${s % 60} s`
    : `${s} s`;
  return `the turn finished after ${words}`;
}
