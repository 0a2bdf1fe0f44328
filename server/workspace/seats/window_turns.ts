/**
 * Where the held window's turns begin and end (window.ts folds its entries into them).
 *
 * The turn boundary is the pager's (conversation/turns.ts), so the window and a transcript page
 * agree on where a turn BEGINS (spec: "where a turn BEGINS is a fact about the session"):
 * - a turn begins at a prompt (`opensTurn`: a forged prompt frame) that arrives after the open
 *   turn ended (its `result`); a prompt sent while a turn runs joins it, as the CLI takes it in
 *   that turn (a `queued_command` in the transcript);
 * - a prompt sent mid-turn that the CLI runs as its own turn after the result instead opens that
 *   turn where the CLI starts it (`command_lifecycle` `started` naming it);
 * - nothing else opens a turn: a backgrounded task's ending and the turn the CLI runs on its own
 *   for it stay in the ended turn (spec: the ending "opens no turn"), as its transcript row does.
 */
import type { CliFrame } from "../../../protocol/mod.ts";
import { opensTurn } from "../conversation/turns.ts";

/** One turn of the window. */
export interface Turn {
  /** Absolute index (the window's count from its first entry ever) of the turn's first entry. */
  start: number;
  /** The first result's uuid once the turn ended: a live turn's name. spec: more > key. */
  key: string | null;
  ended: boolean;
  /** Forged prompts placed in this turn while it ran: the CLI may start one as its own turn. */
  prompts: Set<string>;
}

/** Places the frame at absolute index `index` in `turns`: it opens a turn, joins the open one,
 * or ends it (its `result`). */
export function placeInTurns(turns: Turn[], msg: CliFrame, index: number): void {
  let open = turns.at(-1);
  if (!open || (open.ended && (opensTurn(msg) || startsQueued(open, msg)))) {
    open = { start: index, key: null, ended: false, prompts: new Set() };
    turns.push(open);
  } else if (!open.ended && isForgedPrompt(msg)) {
    open.prompts.add(msg.uuid as string);
  }
  if (msg.type === "result" && !open.ended) {
    open.ended = true;
    open.key = typeof msg.uuid === "string" ? msg.uuid : null;
  }
}

/** A frame the CLI also writes to the transcript under the same uuid. */
export function carried(msg: CliFrame): boolean {
  return (msg.type === "user" || msg.type === "assistant") && typeof msg.uuid === "string";
}

/** A prompt forge forged (seat.ts: a send carries its `source`). */
function isForgedPrompt(msg: CliFrame): boolean {
  return msg.type === "user" && typeof msg.source === "string" && typeof msg.uuid === "string";
}

/** The CLI starting, after the turn ended, a prompt that was sent while that turn ran. */
function startsQueued(open: Turn, msg: CliFrame): boolean {
  return msg.type === "command_lifecycle" && msg.state === "started" &&
    typeof msg.command_uuid === "string" && open.prompts.has(msg.command_uuid);
}
