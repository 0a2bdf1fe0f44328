import { type DictateAxes, encodeDictationFrame, type Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { frames } from "./dictate_audio.ts";
import { SAMPLE_CONFIG } from "./harness.ts";

/** The sample config with dictation on: PocketSphinx + Silero, the real engines. */
export const DICTATE_CONFIG = `${SAMPLE_CONFIG}\n[dictate]\nenabled = true\n`;
export const LEAD: Slot = { org: "Acme", project: "proj", label: "lead" };
export const AS_SPOKEN: DictateAxes = {
  styling: "verbatim",
  structure: "as_spoken",
  context: "general",
};

type Fields = Record<string, unknown>;

/** The next update of variant `name` (its field bag), or of any of the take's variants. */
export async function nextUpdate(c: ForgeClient, name: string, ms = 60_000): Promise<Fields> {
  const m = await c.next((m) => m.kind === "update" && updateName(m.update) === name, ms);
  const u = m.update;
  return typeof u === "string" ? {} : (u as Record<string, Fields>)[name];
}

export function updateName(u: unknown): string {
  return typeof u === "string" ? u : Object.keys(u as object)[0];
}

/** Every dictate_* update the client has received so far, in order. */
export function takeNews(c: ForgeClient): string[] {
  return c.frames.flatMap((f) =>
    f.type === "json" && f.data.kind === "update" &&
      updateName(f.data.update).startsWith("dictate_")
      ? [updateName(f.data.update)]
      : []
  );
}

/** Sends a command as the test wrote it (its wire form; malformed ones included). */
export function command(c: ForgeClient, command: unknown): void {
  c.sendUntyped({ kind: "command", command, reply_to: null });
}

/** Starts a take, streams `samples` as 20 ms frames, and (unless `stop` is false) submits it. */
export function streamTake(
  c: ForgeClient,
  samples: Int16Array,
  opts: { axes?: DictateAxes; surface?: string; stop?: boolean; slot?: Slot } = {},
): void {
  const key = opts.slot ?? LEAD;
  command(c, {
    dictate_stream: { key, options: opts.axes ?? AS_SPOKEN, surface: opts.surface ?? "composer" },
  });
  for (const f of frames(samples)) c.sendBinary(encodeDictationFrame(f));
  if (opts.stop !== false) command(c, { dictate_stop: { key, submit: true } });
}

/** A round trip on the connection: every frame the server sent before it has arrived. */
export async function roundTrip(c: ForgeClient): Promise<void> {
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
}
