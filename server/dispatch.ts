import {
  ClientMessage,
  type ClientMessageOf,
  CommandRefused,
  decodeClientBinary,
  decodeCommandLenient,
  describeIssues,
  NAMED_SUBJECTS,
  needsReply,
  parseIgnoringUnknownFields,
  type ReceivedMessage,
  Slot,
  type Subject,
  VERB_REPLIES,
  type VerbRefusal,
  type Wire,
} from "../protocol/mod.ts";
import type { Connection } from "./connection.ts";
import { MAX_INBOUND_DEPTH, scanFrame } from "./frame_guard.ts";
import type { Logger } from "./log.ts";
import type { Registry } from "./registry.ts";
import { Refusal, type SubjectName } from "./subsystem.ts";
import type { Workspace } from "./workspace/workspace.ts";
import { isEngineError } from "./words.ts";

/**
 * The 16 MiB inbound bound (spec: What a client sends > browser_file_answer), the original's
 * socket max message size.
 */
export const MAX_INBOUND_BYTES = 16 * 1024 * 1024;

/** Refusals logged one by one per connection; the rest are counted on `connection_ended`. */
export const REFUSALS_LOGGED = 20;

export interface DispatchDeps {
  registry: Registry;
  workspace: Workspace;
  log: Logger;
  /** Told when a connection's `showing` or answering moves, or it lets a seat's session go
   * (server/attendance.ts). */
  attendance?: { changed(): void };
}

/**
 * Handles one inbound message on a connection. Anything thrown becomes one `error` frame naming
 * what failed; the connection stays open and stack traces never cross.
 */
export async function dispatchText(
  conn: Connection,
  text: string,
  deps: DispatchDeps,
): Promise<void> {
  let what = "client_message";
  let seat: Slot | null = null;
  try {
    // One pass before JSON.parse builds anything: a deep frame is refused at its first bracket
    // past the bound, and an honest frame's UTF-8 size is counted for the 16 MiB bound.
    const scan = text.length > MAX_INBOUND_BYTES ? null : scanFrame(text);
    if (scan?.deep) {
      const where = scan.deep.field === null ? "the frame" : `\`${scan.deep.field}\``;
      throw new Refusal(
        scan.deep.field === "command" ? "command" : "client_message",
        `${where} nests deeper than ${MAX_INBOUND_DEPTH} levels, the inbound bound`,
      );
    }
    // A text longer in UTF-16 units than the bound is over it in bytes too: no need to count.
    const bytes = scan?.bytes ?? text.length;
    if (bytes > MAX_INBOUND_BYTES) {
      throw new Refusal(
        "client_message",
        `a frame of ${scan ? "" : "at least "}${bytes} bytes is over the 16 MiB inbound bound`,
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      // The parser's words stay out: where it stopped is what a client can act on.
      const at = /position (\d+)/.exec((err as Error).message)?.[1];
      throw new Refusal(
        "client_message",
        `not JSON${at ? ` (it stops making sense at character ${at})` : ""}`,
      );
    }
    const kind = kindOf(raw);
    // Unknown fields are set aside (logged at debug), as the original's serde does.
    const parsed = parseIgnoringUnknownFields(ClientMessage, raw);
    if (parsed.ignored.length) {
      deps.log.debug("client_fields_ignored", {
        conn: conn.id,
        kind,
        fields: parsed.ignored.slice(0, 16),
      });
    }
    if (!parsed.success) {
      const known = ClientMessage.options.some((o) => o.shape.kind.value === kind);
      if (!known) throw new Refusal("client_message", `unknown kind \`${kind}\``);
      unknownSubject(kind, raw as { what?: unknown });
      throw new Refusal(kind, `${kind}: ${describeIssues(parsed.error)}`, rawSeat(raw));
    }
    const message = parsed.data;
    what = message.kind;
    seat = seatOf(message);
    await route(conn, message, deps);
  } catch (err) {
    if (conn.ended) return;
    const refusal = err instanceof Refusal ? err : null;
    if (refusal) {
      // A refused client message leaves a record (kind and reason, never the body).
      // Only the first few per connection: a client refused 100,000 times would otherwise roll
      // every other record out of the log. The connection's end record carries the count.
      if (++conn.refusals <= REFUSALS_LOGGED) {
        deps.log.debug("client_message_refused", {
          conn: conn.id,
          what: refusal.what,
          why: refusal.message.slice(0, 200),
          ...(conn.refusals === REFUSALS_LOGGED ? { more: "counted on connection_ended" } : {}),
        });
      }
    } else deps.log.warn("dispatch_failed", { conn: conn.id, what, error: err });
    conn.send({
      kind: "error",
      what: refusal?.what ?? what,
      why: refusal ? refusal.message : ownWords(what, err),
      seat: refusal?.seat ?? seat,
      dispatch_id: null,
    });
  }
}

/** spec: Subjects. A subject that does not exist is answered with the ones that do. */
function unknownSubject(kind: string, raw: { what?: unknown }): void {
  if (kind !== "subscribe" && kind !== "unsubscribe") return;
  const what = raw.what;
  if (typeof what !== "string" || (NAMED_SUBJECTS as readonly string[]).includes(what)) return;
  throw new Refusal(
    kind,
    `${kind}: there is no subject \`${what.slice(0, 64)}\`; the subjects are ${
      NAMED_SUBJECTS.join(", ")
    } and {"session": {"org", "project", "label"}}`,
  );
}

/**
 * The message's `kind`, or a refusal naming the field: `String()` on a client's value could throw
 * ("Cannot convert object to primitive value") or recurse, and that sentence is the engine's.
 */
function kindOf(raw: unknown): string {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Refusal("client_message", "a message is a JSON object tagged on `kind`");
  }
  const kind = (raw as { kind?: unknown }).kind;
  if (kind === undefined) {
    throw new Refusal("client_message", "a message is an object tagged on `kind`");
  }
  if (typeof kind !== "string") {
    throw new Refusal(
      "client_message",
      `\`kind\` must be a string naming the message, not ${
        Array.isArray(kind)
          ? "a list"
          : kind === null
          ? "null"
          : typeof kind === "object"
          ? "an object"
          : `a ${typeof kind}`
      }`,
    );
  }
  return kind;
}

/**
 * A thrown error's words, unless they are the engine's (a TypeError or RangeError from a bug or a
 * hostile value): those stay in the log and the client hears the core's own sentence.
 */
function ownWords(what: string, err: unknown): string {
  if (isEngineError(err)) return `${what} failed inside the server; the log has the cause`;
  return (err as Error).message;
}

async function route(
  conn: Connection,
  message: ReceivedMessage,
  deps: DispatchDeps,
): Promise<void> {
  switch (message.kind) {
    case "ping":
      conn.send({ kind: "pong" }); // spec: answered with no workspace involvement at all.
      return;
    case "subscribe":
      return subscribe(conn, message, deps);
    case "unsubscribe":
      return letGo(conn, message.what, deps);
    case "showing":
      return showing(conn, message.seat, deps);
    case "command":
      return command(conn, message, deps);
    default: {
      const found = deps.registry.verb(message.kind);
      if ("refusal" in found) {
        const why = `${message.kind}: ${found.refusal}`;
        // spec: browser_view, browser_tabs, terminal_view: a refusal answers {"ok": false, "why"}
        // in the reply when the verb carried reply_to; without it, it is an error frame.
        const replyTo = (message as { reply_to?: number | null }).reply_to;
        if (message.kind in VERB_REPLIES && typeof replyTo === "number") {
          const body: VerbRefusal = { ok: false, why };
          conn.send({ kind: "reply", reply_to: replyTo, body });
          return;
        }
        throw new Refusal(message.kind, why, seatOf(message));
      }
      await found.handler(message as never, conn);
    }
  }
}

async function subscribe(conn: Connection, msg: ClientMessageOf<"subscribe">, deps: DispatchDeps) {
  // spec: answering only goes one way: a later subscribe leaving it false does not take it back.
  if (msg.answering && !conn.answering) {
    conn.answering = true;
    deps.attendance?.changed();
  }
  const name: SubjectName = typeof msg.what === "string" ? msg.what : "session";
  const seat = typeof msg.what === "object" ? msg.what.session : null;
  const found = deps.registry.subject(name);
  if ("refusal" in found) {
    throw new Refusal("subscribe", `${subjectLabel(msg.what)}: ${found.refusal}`, seat);
  }
  // Heard from now, so nothing emitted during the read is missed; held, so it follows the snapshot.
  conn.subs.add(msg.what);
  const release = conn.hold();
  try {
    const data = await found.handler(msg.what, conn, { review: msg.review === true });
    conn.sendSnapshot(msg.what, data);
  } catch (err) {
    letGo(conn, msg.what, deps);
    if (err instanceof Refusal) throw new Refusal("subscribe", err.message, seat);
    deps.log.debug("subscribe_failed", { conn: conn.id, subject: msg.what, error: err });
    throw new Refusal("subscribe", ownWords(`subscribe ${subjectLabel(msg.what)}`, err), seat);
  } finally {
    release();
  }
}

/**
 * Drops one subscription; a seat whose session subject this connection no longer holds at all is
 * news to attendance (a watch kept for the seat's subscribers may stop).
 */
function letGo(conn: Connection, what: Subject, deps: DispatchDeps): void {
  if (conn.subs.remove(what) && typeof what === "object") deps.attendance?.changed();
}

async function showing(conn: Connection, seat: Slot | null, deps: DispatchDeps) {
  conn.showing = seat;
  deps.attendance?.changed();
  // spec: showing > once the seat is also watched it spends the mark; a home snapshot may follow.
  if (
    seat && conn.subs.count({ session: seat }) > 0 && deps.workspace.spendUnseen(seat) &&
    conn.subs.count("home") > 0
  ) {
    const home = deps.registry.subject("home");
    if ("handler" in home) {
      await conn.readAndSend("home", () => home.handler("home", conn, { review: false }));
    }
  }
}

async function command(conn: Connection, msg: ClientMessageOf<"command">, deps: DispatchDeps) {
  const wantsReply = msg.reply_to !== undefined && msg.reply_to !== null;
  let decoded;
  try {
    const lenient = decodeCommandLenient(msg.command);
    decoded = lenient.command;
    if (lenient.ignored.length) {
      deps.log.debug("command_fields_ignored", {
        conn: conn.id,
        fields: lenient.ignored.slice(0, 16),
      });
    }
  } catch (err) {
    if (!(err instanceof CommandRefused)) throw err;
    // spec: a refusal of a reply command arrives in the reply, as the body of the answer; a client
    // waiting on reply_to would otherwise wait for ever. Without reply_to it is an error frame.
    if (err.command && needsReply(err.command) && wantsReply) {
      conn.send({ kind: "reply", reply_to: msg.reply_to as number, body: err.message });
      return;
    }
    throw new Refusal("command", err.message, bagSeat(msg.command));
  }
  // spec: command > reply_to: refused before the command runs, both ways, naming the field.
  if (needsReply(decoded.name) && !wantsReply) {
    throw new Refusal("reply_to", `${decoded.name} requires reply_to: its outcome rides the reply`);
  }
  if (!needsReply(decoded.name) && wantsReply) {
    throw new Refusal("reply_to", `${decoded.name} takes no reply_to: it has no reply to send`);
  }
  const found = deps.registry.command(decoded.name);
  if ("refusal" in found) {
    if (wantsReply) {
      conn.send({ kind: "reply", reply_to: msg.reply_to as number, body: found.refusal });
      return;
    }
    throw new Refusal("dispatch", `${decoded.name}: ${found.refusal}`);
  }
  try {
    const body = await found.handler(decoded as never, conn);
    if (wantsReply) {
      conn.send({ kind: "reply", reply_to: msg.reply_to as number, body: (body ?? null) as Wire });
    }
  } catch (err) {
    // spec: a refusal of one of the nine arrives in the reply, as the body of the answer.
    if (wantsReply) {
      conn.send({
        kind: "reply",
        reply_to: msg.reply_to as number,
        body: ownWords(decoded.name, err),
      });
    } else if (err instanceof Refusal) throw err;
    else throw new Refusal("dispatch", `${decoded.name}: ${ownWords(decoded.name, err)}`);
  }
}

/** Routes a binary frame, or drops it with a debug record: a binary frame has no reply channel. */
export function dispatchBinary(conn: Connection, bytes: Uint8Array, deps: DispatchDeps): void {
  const frame = decodeClientBinary(bytes);
  if ("reason" in frame) {
    deps.log.debug("binary_frame_refused", { conn: conn.id, ...frame, length: bytes.length });
    return;
  }
  if (!deps.registry.binary(frame, conn)) {
    deps.log.debug("binary_frame_refused", { conn: conn.id, reason: "no_taker", kind: frame.kind });
  }
}

/** The fields a client message names its seat in. */
const SEAT_FIELDS = ["seat", "session", "conversation", "slot", "key"] as const;

function seatOf(message: ReceivedMessage): Slot | null {
  const m = message as Record<string, unknown>;
  for (const field of SEAT_FIELDS) {
    const v = m[field] as Slot | undefined;
    if (v && typeof v === "object" && "org" in v) return v;
  }
  if (message.kind === "subscribe" && typeof message.what === "object") return message.what.session;
  return null;
}

/**
 * The seat a message the envelope refused names, when that field is a whole Slot: a refusal
 * belongs to the seat it was about (spec: error > seat), however the rest of it was wrong.
 */
function rawSeat(raw: unknown): Slot | null {
  if (!raw || typeof raw !== "object") return null;
  for (const field of SEAT_FIELDS) {
    const parsed = Slot.safeParse((raw as Record<string, unknown>)[field]);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** The seat a refused command's bag names in `key`, when it is a whole Slot: the error says whose. */
function bagSeat(command: unknown): Slot | null {
  if (!command || typeof command !== "object") return null;
  const bag = Object.values(command)[0] as { key?: unknown } | undefined;
  const parsed = Slot.safeParse(bag && typeof bag === "object" ? bag.key : undefined);
  return parsed.success ? parsed.data : null;
}

function subjectLabel(what: Subject): string {
  return typeof what === "string"
    ? what
    : `${what.session.org}/${what.session.project}/${what.session.label}`;
}
