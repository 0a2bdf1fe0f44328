import {
  NAMED_SUBJECTS,
  parseSlotName,
  readUpdate,
  type Slot,
  slotName,
  updateSlot,
} from "../../protocol/mod.ts";
import { ForgeClient } from "../client_lib.ts";
import { firstServerPing, handshakeStatus, ready } from "./probe.ts";

/** One rule's outcome: passed, failed (with what was seen), or skipped (with why). */
export type Verdict = { ok: true; note: string } | { ok: false; note: string } | {
  skip: string;
};

/** A client-visible rule of the spec, checked against a running forge. */
export interface Rule {
  id: string;
  /** The spec section the rule is read from. */
  section: string;
  check(ctx: Context): Promise<Verdict>;
}

/** What the rules share: the URL, every client they opened (for the schema rule) and the seat. */
export interface Context {
  url: string;
  clients: ForgeClient[];
  /** The live seat the stream rules read, or why there is none. */
  seat: Slot | string;
}

type Msg = Record<string, unknown>;
const pass = (note: string): Verdict => ({ ok: true, note });
const fail = (note: string): Verdict => ({ ok: false, note });
const show = (m: unknown) => JSON.stringify(m).slice(0, 160);

async function client(ctx: Context): Promise<ForgeClient> {
  const c = await ready(ctx.url);
  ctx.clients.push(c);
  return c;
}

/** The first live seat home lists (Idle or Running), or why there is none. */
export async function liveSeat(ctx: Context, wanted: string | null): Promise<Slot | string> {
  if (wanted) return parseSlotName(wanted) ?? `--seat ${wanted} is not org/project/label`;
  const c = await client(ctx);
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot")).data as { agents: Msg[] };
  const row = home.agents.find((a) => a.lifecycle === "Idle" || a.lifecycle === "Running");
  return row ? row.slot as Slot : "no seat is live (start one, or name it with --seat)";
}

const greeting: Rule = {
  id: "greeting",
  section: "The greeting",
  async check(ctx) {
    const c = await ForgeClient.connect(ctx.url, { validate: true });
    ctx.clients.push(c);
    const first = await c.next();
    const second = await c.next();
    if (first.kind !== "greeting") return fail(`the first frame is ${show(first)}`);
    if (second.kind !== "settings") return fail(`the frame after the greeting is ${show(second)}`);
    return pass(`greeting (version ${first.version}), then the settings frame`);
  },
};

const snapshots: Rule = {
  id: "subscribe_snapshot",
  section: "What a client sends > subscribe",
  async check(ctx) {
    const c = await client(ctx);
    const off: string[] = [];
    for (const what of NAMED_SUBJECTS) {
      c.send({ kind: "subscribe", what });
      const m = await c.next((f) => f.kind === "snapshot" || f.kind === "error", 120_000);
      // A subject the config switched off is refused, naming the subject and saying it is off.
      const why = String(m.why);
      if (
        m.kind === "error" && m.what === "subscribe" && why.startsWith(`${what}: `) &&
        /\boff\b/.test(why)
      ) {
        off.push(what);
      } else if (m.kind !== "snapshot" || m.subject !== what) {
        return fail(`subscribe ${what} was answered ${show(m)}`);
      }
    }
    const nobody = { org: "conformance", project: "nowhere", label: "lead" };
    c.send({ kind: "subscribe", what: { session: nobody } });
    const refused = await c.next((f) => f.kind === "snapshot" || f.kind === "error");
    if (refused.kind !== "error") return fail(`a seat that is not there got ${show(refused)}`);
    const answered = NAMED_SUBJECTS.length - off.length;
    const offWords = off.length ? `, ${off.join(" and ")} refused as turned off` : "";
    return pass(`${answered} snapshots${offWords}; a missing seat is an error`);
  },
};

/** The seat's snapshot on a fresh client, then two harmless updates it emits on request. */
async function seatStream(ctx: Context, seat: Slot) {
  const c = await client(ctx);
  c.send({ kind: "subscribe", what: { session: seat } });
  const snap = await c.next((m) => m.kind === "snapshot" || m.kind === "error");
  if (snap.kind !== "snapshot") return { c, error: `subscribe answered ${show(snap)}` };
  const header = (snap.data as { header: { seq: number; session_id: string | null } }).header;
  // cancel_queued_prompt for uuids nobody queued: the CLI answers each, the seat says so in a
  // keyed update (prompt_cancel_resolved {uuid}), and nothing else moves. The frames are read
  // until the last probe's answer, so a frame lost on the way shows as a gap, not a wait.
  const uuids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  for (const uuid of uuids) {
    c.send({ kind: "command", command: { cancel_queued_prompt: { key: seat, uuid } } });
  }
  const frames: Msg[] = [];
  while (!frames.some((f) => answers(f, uuids[2]))) {
    frames.push(await c.next((m) => m.kind === "update" && mine(m, seat), 30_000));
  }
  return { c, header, frames };
}

function mine(m: Msg, seat: Slot): boolean {
  const read = readUpdate(m.update);
  const slot = read.ok ? updateSlot(read.update) : null;
  return !!slot && slotName(slot) === slotName(seat);
}

function answers(m: Msg, uuid: string): boolean {
  const read = readUpdate(m.update);
  return read.ok && read.update.name === "prompt_cancel_resolved" &&
    read.update.fields.uuid === uuid;
}

const seqContinuity: Rule = {
  id: "seq_span",
  section: "What a client receives > update (seq, span)",
  async check(ctx) {
    if (typeof ctx.seat === "string") return { skip: ctx.seat };
    const got = await seatStream(ctx, ctx.seat);
    if ("error" in got) return fail(got.error!);
    let next = got.header.seq;
    for (const f of got.frames) {
      if (f.seq !== next) {
        return fail(`header.seq ${got.header.seq}; expected seq ${next}, got ${show(f)}`);
      }
      if (typeof f.span !== "number" || f.span < 1) return fail(`a seat frame's span: ${show(f)}`);
      next += f.span;
    }
    return pass(`${got.frames.length} frames from seq ${got.header.seq}, none missing`);
  },
};

const seatRange: Rule = {
  id: "seat_range",
  section: "What a client sends > seat_range",
  async check(ctx) {
    if (typeof ctx.seat === "string") return { skip: ctx.seat };
    const got = await seatStream(ctx, ctx.seat);
    if ("error" in got) return fail(got.error!);
    const seen = got.frames.filter((f) => typeof f.seq === "number" && f.span === 1);
    if (seen.length === 0 || !got.header.session_id) return { skip: "no numbered frame to repair" };
    const from = seen[0].seq as number;
    const to = seen.at(-1)!.seq as number;
    got.c.send({ kind: "seat_range", slot: ctx.seat, epoch: got.header.session_id, from, to });
    const answer = await got.c.next((m) => m.kind === "seat_frames" || m.kind === "error");
    if (answer.kind !== "seat_frames") return fail(`seat_range ${from}..${to}: ${show(answer)}`);
    const frames = answer.frames as { seq: number; update: unknown }[];
    for (const f of seen) {
      const again = frames.find((r) => r.seq === f.seq);
      if (!again || JSON.stringify(again.update) !== JSON.stringify(f.update)) {
        return fail(`frame ${f.seq} repaired as ${show(again ?? null)}, read as ${show(f.update)}`);
      }
    }
    got.c.send({ kind: "seat_range", slot: ctx.seat, epoch: "not-this-epoch", from, to });
    const stale = await got.c.next((m) => m.kind === "seat_frames" || m.kind === "error");
    if (stale.kind !== "error" || stale.what !== "seat_range") {
      return fail(`a range in another epoch was answered ${show(stale)}`);
    }
    return pass(`${from}..${to} repaired as read; another epoch is refused naming seat_range`);
  },
};

const paging: Rule = {
  id: "more_paging",
  section: "What a client sends > more",
  async check(ctx) {
    if (typeof ctx.seat === "string") return { skip: ctx.seat };
    const c = await client(ctx);
    c.send({ kind: "subscribe", what: { session: ctx.seat } });
    const snap = await c.next((m) => m.kind === "snapshot" || m.kind === "error");
    if (snap.kind !== "snapshot") return fail(`subscribe answered ${show(snap)}`);
    let cursor = (snap.data as { conversation: { cursor: string | null } }).conversation.cursor;
    let pages = 0;
    for (; cursor !== null && pages < 1000; pages++) {
      c.send({ kind: "more", conversation: ctx.seat, before: cursor, turns: 20 });
      const page = await c.next((m) => m.kind === "page" || m.kind === "error", 60_000);
      if (page.kind !== "page") return fail(`more before ${cursor}: ${show(page)}`);
      const turns = page.turns as unknown[];
      if (turns.length === 0 || turns.length > 20) {
        return fail(`a page of ${turns.length} turns (asked 20) with cursor ${show(page.cursor)}`);
      }
      cursor = page.cursor as string | null;
    }
    if (cursor !== null) return fail("more never reached the first turn in 1000 pages");
    return pass(`the first turn reached in ${pages} page${pages === 1 ? "" : "s"}`);
  },
};

const refusals: Rule = {
  id: "refusals",
  section: "What a client receives > error",
  async check(ctx) {
    const c = await client(ctx);
    const expect = async (send: Msg, what: string, why: RegExp, seat: Slot | null) => {
      c.sendUntyped(send);
      const e = await c.next((m) => m.kind === "error");
      const ok = e.what === what && why.test(String(e.why)) &&
        JSON.stringify(e.seat) === JSON.stringify(seat) && e.dispatch_id === null;
      return ok ? null : `${show(send)} was refused as ${show(e)}`;
    };
    const nobody = { org: "conformance", project: "nowhere", label: "lead" };
    const wrong = await expect(
      { kind: "command", command: { no_such_command: {} } },
      "command",
      /unknown command `no_such_command`/,
      null,
    ) ?? await expect(
      { kind: "command", command: { cancel: { key: nobody } }, reply_to: 1 },
      "reply_to",
      /cancel takes no reply_to/,
      null,
    ) ?? await expect(
      { kind: "no_such_kind" },
      "client_message",
      /no_such_kind/,
      null,
    ) ?? await expect(
      { kind: "more", conversation: nobody, before: null, turns: 20 },
      "more",
      /conformance\/nowhere\/lead/,
      nobody,
    );
    return wrong ? fail(wrong) : pass("four refusals: their what, seat and words");
  },
};

const origin: Rule = {
  id: "origin",
  section: "The socket > Reaching it",
  async check(ctx) {
    const foreign = await handshakeStatus(ctx.url, "http://localhost.evil.example");
    if (!/ 403 /.test(`${foreign} `)) return fail(`a lookalike origin was answered ${foreign}`);
    const local = await handshakeStatus(ctx.url, "http://127.0.0.1:9");
    if (!/ 101 /.test(`${local} `)) return fail(`a loopback origin was answered ${local}`);
    return pass("a lookalike origin gets 403 before any greeting; a loopback one is upgraded");
  },
};

const keepalive: Rule = {
  id: "keepalive",
  section: "The socket > Reaching it (ping); What a client sends > ping",
  async check(ctx) {
    const c = await client(ctx);
    c.send({ kind: "ping" });
    const pong = await c.next((m) => m.kind === "pong" || m.kind === "error");
    if (pong.kind !== "pong") return fail(`ping was answered ${show(pong)}`);
    const ms = await firstServerPing(ctx.url, 20_000);
    if (ms === null) return fail("ping answered pong, but the server sent no ping within 20 s");
    return pass(`ping answered pong; the server pinged after ${(ms / 1000).toFixed(1)} s`);
  },
};

const bounds: Rule = {
  id: "inbound_bounds",
  section: "What a client sends (the 16 MiB inbound bound)",
  async check(ctx) {
    const c = await client(ctx);
    c.socket.send(JSON.stringify({ kind: "ping", pad: "x".repeat(16 * 1024 * 1024) }));
    const big = await c.next((m) => m.kind === "error" || m.kind === "pong", 60_000);
    if (big.kind !== "error" || !/16 MiB inbound bound/.test(String(big.why))) {
      return fail(`a frame over 16 MiB was answered ${show(big)}`);
    }
    c.socket.send(`{"kind":"ping","deep":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    const deep = await c.next((m) => m.kind === "error" || m.kind === "pong");
    if (deep.kind !== "error" || !/nests deeper than/.test(String(deep.why))) {
      return fail(`a frame nested 10,000 deep was answered ${show(deep)}`);
    }
    c.send({ kind: "ping" });
    const after = await c.next((m) => m.kind === "pong" || m.kind === "error");
    if (after.kind !== "pong") return fail(`after the refusals, ping got ${show(after)}`);
    return pass("over 16 MiB and too deep are refused in words; the connection stays");
  },
};

const schemas: Rule = {
  id: "schemas",
  section: "How a message is tagged (protocol/ schemas)",
  check(ctx) {
    const errors = ctx.clients.flatMap((c) => c.schemaErrors);
    const frames = ctx.clients.reduce((n, c) => n + c.frames.length, 0);
    return Promise.resolve(
      errors.length === 0
        ? pass(`${frames} frames read, every one on protocol/'s schemas`)
        : fail(`${errors.length} off the schemas: ${errors.slice(0, 3).join(" | ")}`),
    );
  },
};

/** The rules in the order they run; `schemas` reads every frame the others received. */
export const RULES: readonly Rule[] = [
  greeting,
  snapshots,
  seqContinuity,
  seatRange,
  paging,
  refusals,
  origin,
  keepalive,
  bounds,
  schemas,
];
