import type { SlashCommand } from "../../../../protocol/mod.ts";

/**
 * The commands the CLI advertises that do nothing in the stream-json session a seat runs, each
 * with the words the CLI answers it with there: left out of the menu, since picking one only
 * earns that line. The CLI already leaves out its terminal-only dialogs (/login, /status, /help
 * are not in the list); these it lists anyway. /config (takes key=value) and /doctor (a skill
 * the model runs) do run, so they stay. tests/slash_not_here_test.ts sends each through forge to
 * the real CLI and reads these words back, so a CLI that starts running one fails it.
 * spec: session > slash_commands ("What the CLI last advertised").
 */
export const NOT_IN_A_SESSION: Readonly<Record<string, string>> = {
  focus: "/focus isn't available here yet",
  fast: "Fast mode unavailable: Fast mode is not available in the Agent SDK",
  // The wizard is gone: it answers with where subagent files live, and does nothing.
  agents: "The /agents wizard has been removed.",
  // The CLI's own plumbing, not a person's: one needs a remote session, one a pending hand-off.
  "__remote-workflow": "remote-workflow: error[not-remote-session]",
  "workflow-launch-exec": "workflow-launch-exec: no pending launch handoff",
};

/**
 * The CLI's commands the composer offers for what is typed: only while the text is a slash and
 * the start of a name (no space yet, so a command's arguments are the person's own), the names
 * the typed part begins first, then those holding it; never one that does nothing in a session
 * (NOT_IN_A_SESSION). spec: session > slash_commands ("the names it offers on top of that are
 * the CLI's").
 */
export function slashMatches(text: string, commands: readonly SlashCommand[]): SlashCommand[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  const typed = text.slice(1).toLowerCase();
  const named = commands
    .filter((c) => !Object.hasOwn(NOT_IN_A_SESSION, bare(c.name)))
    .map((c) => ({ c, name: bare(c.name).toLowerCase() }));
  const starts = named.filter((n) => n.name.startsWith(typed));
  const holds = named.filter((n) => !n.name.startsWith(typed) && n.name.includes(typed));
  const all = [...starts, ...holds].map((n) => n.c);
  // The exact name typed whole leaves nothing to pick.
  if (all.length === 1 && bare(all[0].name).toLowerCase() === typed) return [];
  return all;
}

/** A command's name without the slash the CLI may or may not lead it with. */
export function bare(name: string): string {
  return name.replace(/^\//, "");
}

/** The composer's text once `command` is picked: its name, and a space for its arguments. */
export function pickedText(command: SlashCommand): string {
  return `/${bare(command.name)} `;
}

/** What a key does while the list is open: move the mark, pick the marked row, or close. */
export type SlashKey = { kind: "move"; to: number } | { kind: "pick" } | { kind: "close" };

/** Arrow keys move round the `count` rows from `marked`; Enter and Tab pick; Escape closes. */
export function slashKey(key: string, marked: number, count: number): SlashKey | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return { kind: "move", to: (marked + 1) % count };
    case "ArrowUp":
      return { kind: "move", to: (marked - 1 + count) % count };
    case "Enter":
    case "Tab":
      return { kind: "pick" };
    case "Escape":
      return { kind: "close" };
  }
  return null;
}
