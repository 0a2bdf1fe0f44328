import type { SessionUpdate, Slot, Wire, WireObject } from "../../protocol/mod.ts";
import { sameSlot } from "../../protocol/mod.ts";
import type { ForgeConfig } from "../../server/config/types.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import {
  type AskOutcome,
  type HeldAsks,
  type HeldAskSpec,
  type HeldKind,
  type Host,
  type Peer,
  Refusal,
  type ToolCall,
} from "../../server/subsystem.ts";
import type { SeatInfo, Workspace } from "../../server/workspace/workspace.ts";

// A Host for the vault's subsystem-tier tests: a HeldAsks registry that behaves as the
// contract says (park emits `*_pending`, answer resolves and emits `*_resolved`, restamp
// re-pushes), an update list, and a memory log. The spawned tests use the real one.

interface Parked {
  slot: Slot;
  kind: HeldKind;
  request: WireObject;
  resolve: (o: AskOutcome<unknown>) => void;
}

export class FakeAsks implements HeldAsks {
  readonly parked = new Map<string, Parked>();
  #next = 1;
  constructor(private readonly emit: (u: SessionUpdate) => void) {}

  park<A>(slot: Slot, spec: HeldAskSpec): { id: string; outcome: Promise<AskOutcome<A>> } {
    const id = spec.id ?? `ask-${this.#next++}`;
    const { promise, resolve } = Promise.withResolvers<AskOutcome<A>>();
    const end = (o: AskOutcome<unknown>) => {
      if (!this.parked.delete(id)) return;
      this.emit({ name: `${spec.kind}_resolved`, fields: { key: slot, id, ending: o.ending } });
      resolve(o as AskOutcome<A>);
    };
    this.parked.set(id, { slot, kind: spec.kind, request: spec.request, resolve: end });
    spec.signal.addEventListener("abort", () => end({ ending: "cancelled" }));
    this.emit({ name: `${spec.kind}_pending`, fields: { key: slot, id, ...spec.request } });
    return { id, outcome: promise };
  }

  answer(
    slot: Slot,
    kind: HeldKind,
    id: string,
    peer: Peer,
    reply: { ending: "answered"; answer: unknown } | { ending: "declined"; note?: string },
  ): void {
    const p = this.parked.get(id);
    if (!peer.answering) throw new Refusal("answer", "this connection does not answer");
    if (!p || p.kind !== kind || !sameSlot(p.slot, slot)) {
      throw new Refusal("answer", `no ${kind} ${id} is waiting on that seat`);
    }
    p.resolve(reply);
  }

  restamp(slot: Slot, id: string, request: WireObject): void {
    const p = this.parked.get(id);
    if (!p) return;
    p.request = request;
    this.emit({ name: `${p.kind}_pending`, fields: { key: slot, id, ...request } });
  }

  list(slot: Slot) {
    return [...this.parked].filter(([, p]) => sameSlot(p.slot, slot)).map(([id, p]) => ({
      kind: p.kind,
      id,
      request: p.request,
    }));
  }
}

export function fakeHost(vault: Record<string, Wire>, stateDir: string) {
  const updates: SessionUpdate[] = [];
  const log = memoryLogger();
  const state = new StateKeeper(log);
  const asks = new FakeAsks((u) => updates.push(u));
  const config = { areas: { vault: { enabled: true, idle_lock_minutes: 15, ...vault } } };
  const host: Host = {
    log,
    config: () => config as unknown as ForgeConfig,
    stateDir,
    state,
    workspace: {} as unknown as Workspace,
    emit: (u) => void updates.push(u),
    asks,
    deliver: () => Promise.reject(new Error("no deliveries here")),
    toolsChanged: () => {},
  };
  return { host, updates, log, asks, config };
}

export const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };
export const OTHER: Slot = { org: "Acme", project: "proj", label: "w1" };

export function toolCall(slot: Slot = SLOT, signal = new AbortController().signal): ToolCall {
  return {
    seat: { slot, cwd: "/tmp", sessionId: () => null } as unknown as SeatInfo,
    role: "lead",
    toolUseId: null,
    signal,
  };
}

export function peer(answering: boolean): Peer {
  return {
    id: 1,
    answering,
    showing: null,
    send: () => {},
    sendBinary: () => {},
    buffered: () => 0,
    onClose: () => {},
  };
}
