import { z } from "zod";

/** serde's SystemTime: a pair, never a number. */
export const WireTime = z.object({
  secs_since_epoch: z.number().int(),
  nanos_since_epoch: z.number().int(),
}).strict();
export type WireTime = z.infer<typeof WireTime>;

/** An instant (epoch ms) as the wire's pair. */
export function wireTime(ms: number): WireTime {
  const secs = Math.floor(ms / 1000);
  return { secs_since_epoch: secs, nanos_since_epoch: Math.floor((ms - secs * 1000) * 1e6) };
}

/** The wire's pair as an instant (epoch ms). */
export function wireTimeMs(t: WireTime): number {
  return t.secs_since_epoch * 1000 + Math.floor(t.nanos_since_epoch / 1e6);
}
