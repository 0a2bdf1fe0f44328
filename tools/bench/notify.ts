/**
 * Notify bench: how soon a parked ask reaches the person's ntfy, beside a bare post.
 *
 *   tools/deno.sh run --allow-all tools/bench/notify.ts [--rounds 100] [--log forge.log]
 *
 * Arms, interleaved round by round against one fake ntfy server (its own process), each read
 * off the server's subscribe stream as an ntfy app reads it:
 *   forge  the notify subsystem (its reader, notifier, sender and ntfy channel, on the machine's
 *          clock) handed a `permission_request` as the registry hands it every numbered update:
 *          update in -> message on the stream.
 *   bare   one fetch POST of the same JSON body to the same server: post -> message on the
 *          stream. The floor: the server and the loopback, nothing of forge's.
 * forge's figure includes the half second a seat's first need waits for the asks that arrive
 * with it (notifier.ts GATHER_MS, a deliberate wait); the next line is forge's figure less that
 * wait, which is what forge's own path adds over the floor. Last, how long `onUpdate` holds the
 * update path (its synchronous part: what every seat's frames wait behind).
 * Each line: p50, p99 and the range, in ms.
 */
import { startFakeNtfy } from "../../fixtures/ntfy/mod.ts";
import type { SessionUpdate } from "../../protocol/mod.ts";
import { CORE_AREAS } from "../../server/config/core_areas.ts";
import { loadConfigText } from "../../server/config/load.ts";
import { createLogger } from "../../server/log.ts";
import { catalogueAreas } from "../../server/registry.ts";
import type { Host } from "../../server/subsystem.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { MONOTONIC } from "../../server/clock.ts";
import { start } from "../../subsystems/notify/mod.ts";
import { GATHER_MS } from "../../subsystems/notify/notifier.ts";
import { stringFlag } from "./support/flags.ts";

const ROUNDS = Number(stringFlag("rounds", "100"));
const TOPIC = "bench";

const dir = await Deno.makeTempDir({ prefix: "forge-bench-notify-" });
const ntfy = await startFakeNtfy();
const { config } = loadConfigText(
  `[notify]\nenabled = true\ncoalesce_secs = 0\n[notify.ntfy]\nurl = "${ntfy.url}"\n` +
    `topic = "${TOPIC}"\n`,
  `${dir}/forge.toml`,
  catalogueAreas(CORE_AREAS, SUBSYSTEMS),
);
// The subsystem reads its config, log and state dir from the Host, and emits home's state; it
// touches nothing else of it (no seats: the update is handed to it directly).
const host = {
  log: createLogger({ file: stringFlag("log", "") || null, stderr: false }),
  config: () => config,
  stateDir: dir,
  emit: () => {},
} as unknown as Host;
const notify = await start(host, MONOTONIC);
const key = { org: "Acme", project: "alpha", label: "lead" };
const arrived = new Map<string, number>();
let wake: (() => void) | null = null;
const close = await ntfy.subscribe(TOPIC, (m) => {
  arrived.set(m.message, performance.now());
  wake?.();
});
const until = async (body: string) => {
  while (!arrived.has(body)) await new Promise<void>((r) => (wake = r));
  return arrived.get(body)!;
};
// A permission ask with the fields the push reads (its call's title and tool); the rest of a
// real request does not reach a push.
const ask = (i: number) =>
  ({
    name: "permission_request",
    fields: {
      key,
      tool_id: `t${i}`,
      request: { tool_call: { title: `Bash: echo round ${i}`, meta: { tool_name: "Bash" } } },
    },
  }) as unknown as SessionUpdate;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};
const line = (name: string, xs: number[]) =>
  `${name.padEnd(30)} p50 ${pct(xs, 50).toFixed(2)}  p99 ${pct(xs, 99).toFixed(2)}  range ${
    Math.min(...xs).toFixed(2)
  }..${Math.max(...xs).toFixed(2)} ms`;

try {
  const forge: number[] = [], bare: number[] = [], held: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // forge: the ask parks (its update is handed over), then is answered so the next round's
    // push counts one ask, as this one's did.
    const t0 = performance.now();
    notify.onUpdate(ask(i));
    held.push(performance.now() - t0);
    forge.push(await until(`Bash: echo round ${i}`) - t0);
    notify.onUpdate({
      name: "pending_interaction_resolved",
      fields: { key, tool_id: `t${i}`, question_index: null },
    });
    // bare: the same body forge's ntfy channel posts, by hand.
    const body = `Bash: echo bare ${i}`;
    const t1 = performance.now();
    const res = await fetch(`${ntfy.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        topic: TOPIC,
        title: "alpha/lead needs you",
        message: body,
        priority: 4,
        tags: ["bell", "forge"],
      }),
    });
    await res.body?.cancel();
    bare.push(await until(body) - t1);
  }
  console.log(`notify: ${ROUNDS} rounds, forge and bare interleaved, one fake ntfy server`);
  console.log(line("forge: ask parked -> received", forge));
  console.log(line(`forge less the ${GATHER_MS} ms gather`, forge.map((x) => x - GATHER_MS)));
  console.log(line("bare post -> received (floor)", bare));
  console.log(line("onUpdate holds the update path", held));
} finally {
  close();
  await notify.stop();
  await ntfy.stop();
  await Deno.remove(dir, { recursive: true });
}
