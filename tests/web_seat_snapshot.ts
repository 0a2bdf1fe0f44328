import type { Slot, Wire } from "../protocol/mod.ts";
import type { Session } from "../tools/web/app/net/narrow.ts";

/** A seat's snapshot as the web page reads it: `seq` next, `turns` each one message long. */
export const seatSnapshot = (
  seq: number,
  turns: Wire[] = [],
  session_id = "s1",
  key: Slot = { org: "Acme", project: "alpha", label: "lead" },
): Session => ({
  slot: key,
  header: {
    session_id,
    seq,
    model: null,
    available_models: [],
    effort: null,
    permission_mode: null,
    context: { percent: null, max_tokens: null },
    turn_in_flight: false,
  },
  conversation: {
    turns: turns.map((t) => ({ key: null, messages: [t] })),
    compaction_count: 0,
    cursor: "c1",
  },
  state: { slot: key, scan_cwd: "/", queue: [], voice_listeners: 0 },
  composer: { machine: null, compacting: false, sign_in: null, bind: "", mode: "", notice: null },
  pending_asks: [],
  pending_ask: null,
  has_dispatches: false,
  slash_commands: [],
  subagents: [],
  subagent_instances: [],
  background_tasks: [],
  monitors: [],
  mcp: null,
  processes: null,
  terminal: null,
  work: null,
  git: null,
  pr: null,
  closes: [],
  diff: null,
  file_index: null,
  reviews: null,
});
