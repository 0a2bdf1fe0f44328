import {
  type ClientBinary,
  type ClientMessageOf,
  type ServerMessage,
  type Slot,
  slotName,
  type TerminalViewReply,
} from "../../protocol/mod.ts";
import { onEachClose } from "../../server/close_hook.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import { notASeat } from "../../server/workspace/workspace.ts";
import type { TerminalManager } from "./manager.ts";
import type { ViewerSet } from "./viewers.ts";

/** What one connection is attached to: one terminal at a time. spec: terminal_view. */
interface Attachment {
  seat: string;
  slot: Slot;
  id: number;
  viewer: number;
  viewers: ViewerSet;
}

/**
 * A connection's view of one terminal: the verbs that attach, resize, pause, take control and
 * close, and its keystrokes (binary kind 5), each checked against what the connection is
 * attached to. spec: terminal_view .. terminal_close, binary kind 5.
 */
export function terminalViewing(host: Host, manager: TerminalManager) {
  const attached = new Map<number, Attachment>();

  const detach = (peer: Peer): void => {
    const a = attached.get(peer.id);
    if (!a) return;
    attached.delete(peer.id);
    a.viewers.detach(a.viewer);
  };
  // Once per connection, not once per view: a page switching terminals all day would otherwise
  // pile a handler per view onto its connection, each kept until it closed.
  const detachOnClose = onEachClose(detach);

  /** The connection's attachment to the terminal a message names, or a refusal naming the verb. */
  const attachmentFor = (peer: Peer, what: string, slot?: Slot, id?: number): Attachment => {
    const a = attached.get(peer.id);
    if (!a) {
      throw new Refusal(
        what,
        `${what}: this connection is not attached to a terminal`,
        slot ?? null,
      );
    }
    if (slot && (slotName(slot) !== a.seat || a.id !== id)) {
      throw new Refusal(
        what,
        `${what}: this connection is attached to terminal ${a.id} of ${a.seat}, not ${id} of ${
          slotName(slot)
        }`,
        slot,
      );
    }
    return a;
  };

  const outcome = (
    what: string,
    slot: Slot | null,
    result: { ok: true } | { ok: false; why: string },
  ) => {
    if (!result.ok) throw new Refusal(what, `${what}: ${result.why}`, slot);
  };

  return {
    verbs: {
      terminal_view: async (msg: ClientMessageOf<"terminal_view">, peer: Peer) => {
        const seat = host.workspace.seat(msg.seat);
        const answer = (body: TerminalViewReply) => {
          if (msg.reply_to !== undefined && msg.reply_to !== null) {
            peer.send({ kind: "reply", reply_to: msg.reply_to, body });
          }
        };
        if (!seat) {
          const why = notASeat(msg.seat);
          if (msg.reply_to == null) {
            throw new Refusal("terminal_view", `terminal_view: ${why}`, msg.seat);
          }
          return answer({ ok: false, why });
        }
        const opened = await manager.open(slotName(msg.seat), seat.cwd, msg.id);
        if (!opened.ok) {
          if (msg.reply_to == null) {
            throw new Refusal("terminal_view", `terminal_view: ${opened.why}`, msg.seat);
          }
          return answer({ ok: false, why: opened.why });
        }
        detach(peer);
        answer({ ok: true, id: opened.id });
        const viewer = opened.viewers.attach({
          sendJson: (m) => peer.send(m as ServerMessage),
          sendBinary: (b) => peer.sendBinary(b),
          buffered: () => peer.buffered(),
        });
        attached.set(peer.id, {
          seat: slotName(msg.seat),
          slot: msg.seat,
          id: opened.id,
          viewer,
          viewers: opened.viewers,
        });
        detachOnClose(peer);
      },
      terminal_detach: (_msg: ClientMessageOf<"terminal_detach">, peer: Peer) => detach(peer),
      terminal_resize: (msg: ClientMessageOf<"terminal_resize">, peer: Peer) => {
        const a = attachmentFor(peer, "terminal_resize", msg.seat, msg.id);
        outcome("terminal_resize", msg.seat, a.viewers.resize(a.viewer, msg.cols, msg.rows));
      },
      terminal_pause: (msg: ClientMessageOf<"terminal_pause">, peer: Peer) => {
        const a = attachmentFor(peer, "terminal_pause");
        outcome("terminal_pause", a.slot, a.viewers.pause(a.viewer, msg.paused));
      },
      terminal_control: (msg: ClientMessageOf<"terminal_control">, peer: Peer) => {
        const a = attachmentFor(peer, "terminal_control", msg.seat, msg.id);
        outcome("terminal_control", msg.seat, a.viewers.control(a.viewer, msg.take));
      },
      terminal_close: async (msg: ClientMessageOf<"terminal_close">, _peer: Peer) => {
        outcome("terminal_close", msg.seat, await manager.close(slotName(msg.seat), msg.id));
      },
    },
    binary: (frame: ClientBinary, peer: Peer) => {
      if (frame.kind !== 5) return;
      const a = attached.get(peer.id);
      const why = !a
        ? "this connection is not attached to a terminal"
        : a.id !== frame.terminal
        ? `this connection is attached to terminal ${a.id}, not ${frame.terminal}`
        : null;
      const result = why ? { ok: false as const, why } : a!.viewers.input(a!.viewer, frame.keys);
      if (!result.ok) {
        // A refused keystroke is said out loud: a client typing into a terminal it does not
        // control would otherwise see nothing happen. Never the keys themselves, only the count.
        host.log.debug("terminal_input_refused", {
          conn: peer.id,
          bytes: frame.keys.length,
          why: result.why,
        });
        peer.send({
          kind: "error",
          what: "terminal_input",
          why: `terminal_input: ${result.why}`,
          seat: a?.slot ?? null,
          dispatch_id: null,
        });
      }
    },
  };
}
