import { defineSubsystem, type Host, type SubjectHandler } from "../subsystem.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { Board, leadOf } from "./board.ts";
import { TASK_COMMANDS, taskCommands } from "./commands.ts";
import { REAL_CLOCK, type TickClock } from "./cron.ts";
import { BOARD_TOOLS, boardTools } from "./tools.ts";

export { Board, leadOf } from "./board.ts";

/**
 * The board area: every project's task board and its schedules. A core area (no switch): the
 * `board` subject (spec: What a subject carries > board), the people's task commands (the
 * original's), the agents' `tasks__*` and `cron__*` tools (the original forge's `tasks` and `cron`
 * tool families) and the cron tick, whose fires are deliveries into the project's lead
 * (`source: cron`, announced by `cron_prompt_appended`). It fills the workspace's fired-prompt
 * resolver, so a page names the schedule each fired prompt came from (spec: page > cron_names).
 * `onBoard` hands the running board to home, whose fleet row counts its tasks. `clock` is the
 * tests' own.
 */
export function boardArea(
  onBoard: (board: Board | null) => void = () => {},
  clock: TickClock = REAL_CLOCK,
) {
  return defineSubsystem({
    id: "board",
    note: "the task board: rows, schedules and connector sets per project; the cron tick",
    switch: null,
    area: null,
    verbs: [],
    commands: TASK_COMMANDS,
    subjects: ["board"],
    binary: [],
    tools: BOARD_TOOLS,
    load: () =>
      Promise.resolve({
        create: async (host: Host) => {
          const board = await Board.open(host, clock, (entry, text, uuid, once) => {
            const lead = leadOf({ org: entry.org, name: entry.project });
            return host.deliver(lead, {
              text,
              source: "cron",
              uuid,
              once,
              announce: {
                name: "cron_prompt_appended",
                fields: {
                  key: lead,
                  text,
                  uuid,
                  cron_id: entry.id,
                  description: entry.description,
                  name: entry.name,
                },
              },
            });
          });
          host.workspace.firedPromptName = (uuid) => board.crons.nameOf(uuid);
          // A fire waits in its lead's CLI queue until the CLI moves it (spec: prompt_lifecycle);
          // until then a restart, or the lead's next CLI (connected, session_replaced), hands it
          // over again (cron_waiting.ts).
          const unhear = host.workspace.stream.subscribe(({ update }) => {
            if (update.name === "prompt_lifecycle") {
              void board.crons.promptMoved(update.fields.uuid, update.fields.state);
            }
            if (update.name !== "connected" && update.name !== "session_replaced") return;
            const { key } = update.fields;
            if (key.label === LEAD_LABEL) void board.crons.leadUp(key.org, key.project);
          });
          onBoard(board);
          // The boot catch-up runs on; start never rejects (a failed tick is logged as
          // cron_tick_failed and the tick looks again a chunk later).
          void board.crons.start();
          const subject: SubjectHandler = async () => await board.snapshot();
          return {
            verbs: {},
            commands: taskCommands(host, board),
            subjects: { board: subject },
            tools: boardTools(board),
            stop: async () => {
              unhear();
              await board.crons.stop();
              onBoard(null);
            },
          };
        },
      }),
  });
}
