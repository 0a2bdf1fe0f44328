import { type CommandName, isCommandName, replySchema } from "./command.ts";
import { describeIssues } from "./issues.ts";
import { ServerMessage } from "./server.ts";
import { snapshotSchema } from "./snapshots.ts";
import type { Subject } from "./subject.ts";
import { readUpdate } from "./update.ts";

/**
 * A validating client's reader: checks every server message it receives against protocol/'s
 * schemas, all the way in - the envelope (`ServerMessage`), a snapshot's data (its subject's
 * schema), an update's fields and each repaired frame's (the update table), and a reply's body
 * when the client knows which command it answers. The test clients (tools/client_lib.ts, the
 * spawned-server harness) and `task client --validate` run every frame through one of these, so
 * the whole suite reads the wire as a client written from the schemas would.
 */
export class WireChecker {
  /** The command each `reply_to` the client sent belongs to. */
  readonly #asked = new Map<number, CommandName>();

  /** Notes an outgoing message: a command with `reply_to` names what its reply must carry. */
  sent(message: unknown): void {
    if (!message || typeof message !== "object") return;
    const m = message as { kind?: unknown; command?: unknown; reply_to?: unknown };
    if (m.kind !== "command" || typeof m.reply_to !== "number") return;
    const name = typeof m.command === "string"
      ? m.command
      : m.command && typeof m.command === "object"
      ? Object.keys(m.command)[0]
      : undefined;
    if (name && isCommandName(name)) this.#asked.set(m.reply_to, name);
  }

  /** The problems with one received message, in words; empty when it is on the schemas. */
  check(data: unknown): string[] {
    const parsed = ServerMessage.safeParse(data);
    const kind = (data as { kind?: unknown } | null)?.kind;
    if (!parsed.success) return [`${String(kind)}: ${describeIssues(parsed.error)}`];
    const m = parsed.data;
    switch (m.kind) {
      case "snapshot": {
        const read = snapshotSchema(m.subject as Subject).safeParse(m.data);
        return read.success
          ? []
          : [`snapshot of ${JSON.stringify(m.subject)}: ${describeIssues(read.error)}`];
      }
      case "update": {
        const read = readUpdate(m.update);
        return read.ok ? [] : [`update ${read.why}`];
      }
      case "seat_frames":
        return m.frames.flatMap((f, i) => {
          const read = readUpdate((f as { update?: unknown } | null)?.update);
          return read.ok ? [] : [`seat_frames frame ${i}: ${read.why}`];
        });
      case "reply": {
        const name = this.#asked.get(m.reply_to);
        this.#asked.delete(m.reply_to);
        const schema = name ? replySchema(name) : null;
        // A refusal rides the reply as forge's sentence (spec: command > reply_to).
        if (!schema || typeof m.body === "string") return [];
        const read = schema.safeParse(m.body);
        return read.success ? [] : [`reply to ${name}: ${describeIssues(read.error)}`];
      }
      default:
        return [];
    }
  }
}
