import type { z } from "zod";
import { isCommandName, replySchema } from "./command_wire.ts";
import { describeIssues } from "./issues.ts";
import { ServerMessage } from "./server.ts";
import { readSnapshotFrame } from "./snapshots.ts";
import { VERB_REPLIES } from "./verb_replies.ts";

/** What a `reply_to` the client sent asked: its name, and its reply's schema (null: none). */
interface Asked {
  what: string;
  schema: z.ZodType | null;
  /** A command's refusal rides its reply as a string; a verb's is its schema's own arm. */
  command: boolean;
}

/**
 * A validating client's reader: checks every server message it receives against protocol/'s
 * schemas, all the way in - the envelope (`ServerMessage`, which holds a page's turns, a
 * document read's threads, and an update's fields and each repaired frame's, read against the
 * update table by `WireUpdate`), a snapshot's data (its subject's schema), and a reply's body: a command's (COMMANDS' `reply`)
 * and a verb's (`VERB_REPLIES`), for the `reply_to` this client sent. The test clients
 * (tools/client_lib.ts, the spawned-server harness) and `task client --validate` run every frame
 * through one of these, so the whole suite reads the wire as a client written from the schemas
 * would.
 */
export class WireChecker {
  /** What each `reply_to` the client sent belongs to. */
  readonly #asked = new Map<number, Asked>();

  /** Notes an outgoing message: a command or verb with `reply_to` names what its reply carries. */
  sent(message: unknown): void {
    if (!message || typeof message !== "object") return;
    const m = message as { kind?: unknown; command?: unknown; reply_to?: unknown };
    if (typeof m.reply_to !== "number") return;
    if (typeof m.kind === "string" && Object.hasOwn(VERB_REPLIES, m.kind)) {
      const schema = VERB_REPLIES[m.kind as keyof typeof VERB_REPLIES];
      this.#asked.set(m.reply_to, { what: m.kind, schema, command: false });
      return;
    }
    if (m.kind !== "command") return;
    const name = typeof m.command === "string"
      ? m.command
      : m.command && typeof m.command === "object"
      ? Object.keys(m.command)[0]
      : undefined;
    if (name && isCommandName(name)) {
      this.#asked.set(m.reply_to, { what: name, schema: replySchema(name), command: true });
    }
  }

  /** The problems with one received message, in words; empty when it is on the schemas. */
  check(data: unknown): string[] {
    const parsed = ServerMessage.safeParse(data, { reportInput: true });
    const kind = (data as { kind?: unknown } | null)?.kind;
    if (!parsed.success) {
      // An `update` frame's miss is in its field of the same name: say "update" once.
      const said = describeIssues(parsed.error);
      return [said.startsWith(`${String(kind)}: `) ? said : `${String(kind)}: ${said}`];
    }
    const m = parsed.data;
    switch (m.kind) {
      case "snapshot": {
        const read = readSnapshotFrame(m);
        return read.ok ? [] : [read.why];
      }
      case "reply": {
        const asked = this.#asked.get(m.reply_to);
        this.#asked.delete(m.reply_to);
        // A command's refusal rides the reply as forge's sentence (spec: command > reply_to).
        if (!asked?.schema || (asked.command && typeof m.body === "string")) return [];
        const read = asked.schema.safeParse(m.body, { reportInput: true });
        return read.success ? [] : [`reply to ${asked.what}: ${describeIssues(read.error)}`];
      }
      default:
        return [];
    }
  }
}
