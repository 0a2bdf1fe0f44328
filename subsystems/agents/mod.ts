import { type Command, type Slot, slotName, type WrappedPrompt } from "../../protocol/mod.ts";
import { type Host, Refusal, toolHandlers, type ToolResult } from "../../server/subsystem.ts";
import { ownWords } from "../../server/subsystem.ts";
import { deliverPeer } from "../../server/peer_delivery.ts";
import { AGENT_TOOLS, type AgentToolHandler } from "./tools.ts";
import { messageId, senderName } from "./envelope.ts";

/**
 * The agents family: identity, the seats with their lifecycle, and peer messages.
 * A message is delivered as a forged user turn with `source: peer` (Host.deliver wakes a
 * sleeping lead) and announced as `peer_envelope_appended`; `deliver_peer_prompt` is the same
 * delivery for a client.
 */
export function create(host: Host) {
  /** Delivers a wrapped message to a project's lead; rejects with the sentence why not. */
  const deliverPeerTo = (target: Slot, wrapped: WrappedPrompt) =>
    deliverPeer(host, target, wrapped);

  const lifecycleOf = (slot: Slot): string => {
    const seat = host.workspace.seats().find((s) => slotName(s.slot) === slotName(slot));
    return (seat as { lifecycle?: string } | undefined)?.lifecycle ?? "Sleeping";
  };

  const whoami: AgentToolHandler<0> = (_input, call) =>
    json({
      slot: call.seat.slot,
      role: call.role,
      project_path: call.seat.project.path,
      cwd: call.seat.cwd,
      session_id: call.seat.sessionId(),
    });

  const list: AgentToolHandler<1> = ({ project: only }, call) => {
    const rows = new Map<string, { slot: Slot; lifecycle: string; cwd: string }>();
    for (const project of host.workspace.projects()) {
      const slot = { org: project.org, project: project.name, label: "lead" };
      rows.set(slotName(slot), { slot, lifecycle: lifecycleOf(slot), cwd: project.path });
    }
    const mine = call.seat.slot;
    for (const seat of host.workspace.seats()) {
      const same = seat.slot.org === mine.org && seat.slot.project === mine.project;
      if (seat.slot.label === "lead" || same) {
        rows.set(slotName(seat.slot), {
          slot: seat.slot,
          lifecycle: lifecycleOf(seat.slot),
          cwd: seat.cwd,
        });
      }
    }
    const out = [...rows.values()].filter((r) => !only || r.slot.project === only);
    return json(out);
  };

  const sendMessage: AgentToolHandler<2> = async (
    { project, org, message },
    call,
  ): Promise<ToolResult> => {
    const target: Slot = { org: org ?? call.seat.slot.org, project, label: "lead" };
    if (!host.workspace.project(target.org, target.project)) {
      const known = host.workspace.projects().map((p) => `${p.org}/${p.name}`).join(", ");
      return {
        text:
          `agents__send_message: no project ${target.org}/${project} is declared; the projects are ${known}`,
        isError: true,
      };
    }
    if (slotName(target) === slotName(call.seat.slot)) {
      return { text: "agents__send_message: that is your own seat", isError: true };
    }
    const wrapped: WrappedPrompt = {
      id: messageId(),
      kind: "message",
      sender_name: senderName(call.seat.slot),
      sender_org: call.seat.slot.org,
      body: message,
    };
    try {
      await deliverPeerTo(target, wrapped);
    } catch (err) {
      return {
        text: `agents__send_message: message ${wrapped.id} to ${
          slotName(target)
        } failed to deliver: ${
          ownWords(err, {
            log: host.log,
            event: "peer_message_undelivered",
            fallback: "forge could not hand it over; the log has the cause",
          })
        }`,
        isError: true,
      };
    }
    return json({ status: "delivered", id: wrapped.id, to: target });
  };

  return {
    verbs: {},
    commands: {
      // The fields arrive parsed (protocol/workers.ts DeliverPeerPromptFields).
      deliver_peer_prompt: async (c: Extract<Command, { name: "deliver_peer_prompt" }>) => {
        const { caller, target_project, wrapped } = c.fields;
        const project =
          host.workspace.projects().find((p) =>
            p.name === target_project && p.org === caller.org
          ) ?? host.workspace.projects().find((p) => p.name === target_project);
        if (!project) {
          throw new Refusal(
            "dispatch",
            `deliver_peer_prompt: no project is named \`${target_project}\``,
          );
        }
        const target = { org: project.org, project: project.name, label: "lead" };
        try {
          await deliverPeerTo(target, wrapped);
        } catch (err) {
          const why = ownWords(err, {
            log: host.log,
            event: "peer_prompt_undelivered",
            fallback: "forge could not hand it over; the log has the cause",
          });
          throw new Refusal("dispatch", `deliver_peer_prompt: ${why}`, target);
        }
      },
    },
    subjects: {},
    tools: toolHandlers(AGENT_TOOLS)({
      agents__whoami: whoami,
      agents__list: list,
      agents__send_message: sendMessage,
    }),
  };
}

function json(value: unknown): Promise<ToolResult> {
  return Promise.resolve({ text: JSON.stringify(value, null, 1) });
}
