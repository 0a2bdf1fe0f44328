// What the spawned SDK reconnect tests share: a reconnecting client on a hand-moved clock and the
// link events it heard, and a terminal's byte stream read back as text.
import { decodeTerminalOutput } from "../protocol/mod.ts";
import { ForgeClient, type Frame, type LinkEvent } from "../tools/client_lib.ts";
import type { ManualClock } from "./manual_clock.ts";
import { until } from "./seats_harness.ts";

/** A reconnecting client and the link events it heard, `link(n)` waiting for the nth. */
export async function reconnecting(url: string, clock: ManualClock) {
  const c = await ForgeClient.connect(url, {
    validate: true,
    reconnect: { clock, random: () => 0.5 },
  });
  const heard: LinkEvent[] = [];
  c.onLink((e) => heard.push(e));
  const link = async (n: number) => {
    await until(() => heard.length >= n, 60_000, `link event ${n}`);
    return heard[n - 1];
  };
  return { c, link };
}

/** Everything a client was sent of terminal `id`'s byte stream after `before`, as text. */
export function output(c: ForgeClient, id: number, before: Set<Frame>): string {
  return c.frames.flatMap((f) => {
    if (before.has(f) || f.type !== "binary" || f.kind !== 4) return [];
    const d = decodeTerminalOutput(f.bytes);
    return d.ok && d.frame.id === id ? [new TextDecoder().decode(d.frame.bytes)] : [];
  }).join("");
}
