// How a seat test speaks the wire: commands typed by protocol/'s command table, update frames
// read back (typed through protocol/'s schemas where a test answers with what it read), and a
// seat subscribed once its CLI is connected. seats_harness.ts re-exports all of it.
import {
  type CommandBody,
  type CommandName,
  commandWire,
  decodeUpdate,
  fieldsOf,
  type Slot,
  type UpdateFields,
  type UpdateName,
} from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

/** The update payload of an `update` frame, by variant name, or null. */
export function updateOf(m: Record<string, unknown>, name: string): Record<string, unknown> | null {
  if (m.kind !== "update" || typeof m.update !== "object" || m.update === null) return null;
  return ((m.update as Record<string, unknown>)[name] as Record<string, unknown>) ?? null;
}

/**
 * The fields of an `update` frame of variant `name`, read through protocol/'s schema and typed
 * by it (so an id read from it is a string), or null for any other frame. A frame of that variant
 * off its schema throws the schema's sentence: forge drifting from protocol/ is a bug to see.
 */
export function typedUpdateOf<N extends UpdateName>(
  m: Record<string, unknown>,
  name: N,
): UpdateFields<N> | null {
  if (updateOf(m, name) === null) return null;
  return fieldsOf(decodeUpdate(m.update), name);
}

/** The fields of the next update of variant `name` on a client (typedUpdateOf). */
export async function nextUpdate<N extends UpdateName>(
  c: ForgeClient,
  name: N,
  ms = 60_000,
): Promise<UpdateFields<N>> {
  return typedUpdateOf(await c.next((m) => updateOf(m, name) !== null, ms), name)!;
}

/** The CLI frame a `chat_appended` update carries, or null. */
export function chatOf(m: Record<string, unknown>): Record<string, unknown> | null {
  return (updateOf(m, "chat_appended")?.msg as Record<string, unknown>) ?? null;
}

/**
 * Subscribes to a seat and returns its snapshot once the seat's CLI is connected: a snapshot
 * whose header lists models was read after `initialize` answered; otherwise the `connected`
 * update follows it on the same ordered socket.
 */
export async function subscribeSeat(
  c: ForgeClient,
  slot: Slot,
  answering = false,
): Promise<Record<string, unknown>> {
  c.send({ kind: "subscribe", what: { session: slot }, answering });
  const snap = (await c.next((m) => m.kind === "snapshot" && m.subject !== "home")).data as {
    header: { available_models: unknown[] };
  };
  if (snap.header.available_models.length === 0) {
    await c.next((m) => {
      const u = updateOf(m, "connected");
      return u !== null && JSON.stringify(u.key) === JSON.stringify(slot);
    }, 60_000);
  }
  return snap;
}

/**
 * Sends a command the way a client does, its fields typed by protocol/'s command table (a
 * misspelt name or a wrong field fails `deno check`). Fire and forget: the test waits for the
 * frame it expects. A send that is bad on purpose goes through `ForgeClient.sendUntyped`.
 */
export function command<N extends CommandName>(
  c: ForgeClient,
  name: N,
  fields: CommandBody<N>,
): void {
  c.send({ kind: "command", command: commandWire(name, fields) });
}

/** A seat's lifecycle as a fresh home read states it (the row of `project`'s lead). */
export async function homeLifecycle(c: ForgeClient, project: string): Promise<unknown> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: { slot: { project: string }; lifecycle: unknown }[];
  };
  c.send({ kind: "unsubscribe", what: "home" });
  return home.agents.find((a) => a.slot.project === project)?.lifecycle;
}
