import type { Command, ListSessionsReply } from "../../protocol/mod.ts";
import { encodeUpdate, update } from "../../protocol/mod.ts";
import { defineSubsystem, type Host, type Peer, Refusal } from "../subsystem.ts";
import type { SeatManager } from "../workspace/seats/mod.ts";
import { notASeat } from "../workspace/workspace.ts";
import { CONVERSATION_VERBS, conversationVerbs } from "./conversation.ts";
import { listSessions } from "./session_list.ts";

type Of<N extends Command["name"]> = Extract<Command, { name: N }>;

/**
 * The seat commands (the original's Command variants): spawning, replacing and releasing occupants,
 * prompts and cancels, modes and models, the answers to parked asks and a call's output. A core
 * area: it has no switch. Every command is fire-and-forget (spec: command): its effect arrives as
 * updates, and a command for a seat with no session is refused naming the seat. `read_call_output`
 * is answered to the asking connection alone, `seq: null`, because it stands nowhere in the
 * sequence (spec: What a client receives > update). It also answers the conversation verbs, `more`
 * and `seat_range` (conversation.ts), over the same seats. The server builds `seats`; the area
 * boots it when it starts.
 */
export function seatsArea(seats: SeatManager) {
  return defineSubsystem({
    id: "seats",
    note: "the claude sessions forge supervises, and the commands that drive them",
    switch: null,
    area: null,
    verbs: CONVERSATION_VERBS,
    commands: [
      "spawn_project",
      "spawn_session",
      "new_session",
      "resume_session",
      "close_session",
      "prompt",
      "prompt_under",
      "cancel",
      "cancel_queued_prompt",
      "set_mode",
      "set_model",
      "respond_permission",
      "respond_question",
      "read_call_output",
      "list_sessions",
      "reconnect_mcp_server",
      "toggle_mcp_server",
      "replay_conversation",
      "start_default",
    ],
    subjects: [],
    binary: [],
    load: () =>
      Promise.resolve({
        create: async (host: Host) => {
          await seats.boot();
          const f = <N extends Command["name"]>(c: Of<N>) =>
            c.fields as NonNullable<Of<N>["fields"]>;
          return {
            verbs: conversationVerbs(host),
            subjects: {},
            commands: {
              spawn_project: (c: Of<"spawn_project">) =>
                seats.spawnProject(f(c).project_name, f(c).launch_settings),
              spawn_session: (c: Of<"spawn_session">) =>
                seats.spawnSession(f(c).key, f(c).role, f(c).launch_settings),
              new_session: (c: Of<"new_session">) =>
                seats.newSession(f(c).key, f(c).cwd, f(c).launch_settings),
              resume_session: (c: Of<"resume_session">) =>
                seats.resumeSession(f(c).key, f(c).session_id, f(c).cwd, f(c).launch_settings),
              close_session: (c: Of<"close_session">) => seats.closeSession(f(c).session_key),
              prompt: (c: Of<"prompt">) => {
                const { key, text, attachments } = f(c);
                seats.get("prompt", key).prompt(
                  "prompt",
                  text,
                  attachments,
                  crypto.randomUUID(),
                  "you",
                );
              },
              prompt_under: (c: Of<"prompt_under">) => {
                const { key, text, attachments, uuid, source } = f(c);
                seats.get("prompt_under", key).prompt(
                  "prompt_under",
                  text,
                  attachments,
                  uuid,
                  source,
                );
              },
              cancel: (c: Of<"cancel">) => seats.get("cancel", f(c).key).cancel(),
              cancel_queued_prompt: (c: Of<"cancel_queued_prompt">) =>
                seats.get("cancel_queued_prompt", f(c).key).cancelQueued(f(c).uuid),
              set_mode: (c: Of<"set_mode">) => seats.get("set_mode", f(c).key).setMode(f(c).mode),
              set_model: (c: Of<"set_model">) =>
                seats.get("set_model", f(c).key).setModel(f(c).model),
              respond_permission: (c: Of<"respond_permission">, peer: Peer) =>
                seats.get("respond_permission", f(c).key)
                  .respondPermission(f(c).tool_id, f(c).outcome, peer.answering),
              respond_question: (c: Of<"respond_question">, peer: Peer) =>
                seats.get("respond_question", f(c).key)
                  .respondQuestion(f(c).tool_id, f(c).outcome, peer.answering),
              reconnect_mcp_server: (c: Of<"reconnect_mcp_server">) =>
                seats.get("reconnect_mcp_server", f(c).key)
                  .mcpOperation("reconnect", f(c).server_name),
              toggle_mcp_server: (c: Of<"toggle_mcp_server">) =>
                seats.get("toggle_mcp_server", f(c).key)
                  .mcpOperation("toggle", f(c).server_name, f(c).enabled),
              replay_conversation: (c: Of<"replay_conversation">) =>
                seats.get("replay_conversation", f(c).key).replay(),
              // The named project's lead, else the first project the config declares.
              start_default: (c: Of<"start_default">) => {
                const name = f(c).project_name ?? host.workspace.projects()[0]?.name;
                if (!name) {
                  throw new Refusal("dispatch", "start_default: the config declares no project");
                }
                seats.spawnProject(name, f(c).launch_settings);
              },
              // A sleeping seat lists them too: the list is what it can resume.
              list_sessions: async (c: Of<"list_sessions">): Promise<ListSessionsReply> => {
                const seat = host.workspace.seat(f(c).key);
                if (!seat) {
                  throw new Refusal("dispatch", `list_sessions: ${notASeat(f(c).key)}`, f(c).key);
                }
                return { sessions: await listSessions(host.config(), seat.project) };
              },
              read_call_output: async (c: Of<"read_call_output">, peer: Peer) => {
                const { key, call_id } = f(c);
                const output = await seats.get("read_call_output", key).readCallOutput(call_id);
                peer.send({
                  kind: "update",
                  update: encodeUpdate(update("call_output", { key, call_id, output })),
                  seq: null,
                  span: 1,
                });
              },
            },
            stop: async () => {
              await seats.stop();
              host.workspace.stream.flush();
            },
          };
        },
      }),
  });
}
