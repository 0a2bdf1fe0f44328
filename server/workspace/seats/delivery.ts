import { slotName } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import { isDir, isFile } from "../../path_kind.ts";
import type { Delivered, Delivery } from "../../subsystem.ts";
import { LEAD_LABEL, type Workspace } from "../workspace.ts";
import type { Seat } from "./seat.ts";
import type { SessionRecord } from "./session_book.ts";

export interface DeliveryEnv {
  projectPath: string;
  /** Wakes under way, per seat: a second delivery joins the first's. */
  starting: Map<string, Promise<void>>;
  /** The session the seat last held (the session book). */
  last: () => SessionRecord | undefined;
  log: Logger;
  workspace: Workspace;
}

/**
 * Host.deliver: forges a user turn into a seat (spec: "Not every frame on the stream is the
 * CLI's") as `prompt_under` does, under the delivery's source. A seat still starting takes the
 * turn once its CLI answered; a sleeping lead is started first; a worker must be live. With
 * `once`, a prompt whose uuid already landed in the transcript (a crash cut the delivery's
 * bookkeeping, not the delivery) is not sent again (`landed`). Rejects with a sentence.
 */
export async function deliverTo(
  seat: Seat,
  delivery: Delivery,
  env: DeliveryEnv,
): Promise<Delivered> {
  await settled(seat);
  if (!seat.occupied) {
    if (seat.slot.label !== LEAD_LABEL) {
      throw new Error(`${seat.name} has no session to deliver to (a worker must be live)`);
    }
    let starting = env.starting.get(seat.name);
    if (!starting) {
      starting = wake(seat, env).finally(() => env.starting.delete(seat.name));
      env.starting.set(seat.name, starting);
    }
    await starting;
    if (!seat.occupied) {
      throw new Error(
        `${seat.name} could not be woken: ${seat.failureMessage ?? "it did not start"}`,
      );
    }
  }
  const uuid = delivery.uuid ?? crypto.randomUUID();
  if (delivery.once && await landed(env.last()?.transcript, uuid)) {
    env.log.info("delivery_already_landed", { seat: slotName(seat.slot), uuid });
    return "landed";
  }
  seat.prompt("deliver", delivery.text, [], uuid, delivery.source);
  if (delivery.announce) env.workspace.emit(delivery.announce);
  return "sent";
}

/** Waits out every start under way: a start another one replaced hands over to the newer. */
async function settled(seat: Seat): Promise<void> {
  while (seat.spawning) await seat.started;
}

/**
 * Starts a sleeping lead for a delivery: on the session the book remembers, as the boot's
 * auto-start does, so a cron fire or a peer's message lands in the conversation it belongs to;
 * a fresh session when there is none, its transcript is gone, or the resume did not come up.
 */
async function wake(seat: Seat, env: DeliveryEnv): Promise<void> {
  const last = env.last();
  if (last && await isFile(last.transcript) && await isDir(last.cwd)) {
    env.log.info("seat_woken", { seat: seat.name, session: last.session_id });
    await seat.start({ occupancy: { resume: last.session_id }, cwd: last.cwd });
    await settled(seat);
    if (seat.occupied) return;
  }
  await seat.start({ occupancy: { sessionId: crypto.randomUUID() }, cwd: env.projectPath });
  await settled(seat);
}

/** Whether a prompt with this uuid is already in the transcript. */
async function landed(transcript: string | undefined, uuid: string): Promise<boolean> {
  if (!transcript) return false;
  try {
    return new RegExp(`"uuid":\\s*"${uuid}"`).test(await Deno.readTextFile(transcript));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw new Error(`the transcript ${transcript} could not be read to check the prompt`, {
      cause: err,
    });
  }
}
