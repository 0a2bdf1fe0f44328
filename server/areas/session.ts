import { type SessionSnapshot, type Slot, type Subject } from "../../protocol/mod.ts";
import { encodeSpliced } from "../encoded.ts";
import type { Registry } from "../registry.ts";
import { defineSubsystem, type Host, type Peer, Refusal } from "../subsystem.ts";
import { sessionDefaults } from "../workspace/seats/rows.ts";
import { notASeat } from "../workspace/workspace.ts";

/**
 * The session subject: one seat's record. spec: What a subject carries > session. The fields a
 * seat's driver owns come from the seat; the rest (work, diff, terminal...) from the subsystems
 * that own them; a declared lead nobody started is answered with empty fields.
 */
export function sessionArea(registry: () => Registry) {
  return defineSubsystem({
    id: "session",
    note: "one seat's record, conversation and composer",
    switch: null,
    area: null,
    verbs: [],
    commands: [],
    subjects: ["session"],
    binary: [],
    load: () =>
      Promise.resolve({
        create: (host: Host) => ({
          verbs: {},
          commands: {},
          subjects: {
            session: async (subject: Subject, _peer: Peer, opts: { review: boolean }) => {
              if (typeof subject !== "object") {
                throw new Error("session: a seat subject names {org, project, label}");
              }
              // The conversation page is spliced from its last encoding while the window holds
              // still (encoded.ts): a subscribe of an idle seat encodes only the fields around it.
              const data = await sessionSnapshot(host, registry(), subject.session, opts);
              return encodeSpliced(data, "conversation", "turns");
            },
          },
        }),
      }),
  });
}

export async function sessionSnapshot(
  host: Host,
  registry: Registry,
  slot: Slot,
  opts: { review: boolean } = { review: false },
): Promise<SessionSnapshot> {
  // As the original orders them, queued updates precede a snapshot: a held run goes out first.
  host.workspace.stream.flush(slot);
  const seat = host.workspace.seat(slot);
  if (!seat) {
    throw new Refusal(
      "subscribe",
      notASeat(slot),
      slot,
    );
  }
  // The seat's fields as a seat with no occupant shows them, and the rest empty (rows.ts); the
  // composer carries [dictate] bind and mode as a live seat's does.
  const base = sessionDefaults(
    seat,
    host.workspace.stream.nextSeq(slot),
    host.config().areas.dictate ?? {},
  );
  // A subsystem may add fields INSIDE the seat's own `composer` and `state` (dictation's notice
  // and overrides): those merge into the seat's objects rather than replacing them.
  const { composer, state, ...extra } = await registry.sessionFields(slot, opts);
  const own = seat.sessionFields ? await seat.sessionFields() : {};
  const { composer: seatComposer, state: seatState, ...seatRest } = own;
  const out: SessionSnapshot = Object.assign(base, extra, seatRest);
  out.composer = { ...out.composer, ...seatComposer, ...composer };
  out.state = { ...out.state, ...seatState, ...state };
  return out;
}
