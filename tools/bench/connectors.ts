/**
 * Connectors bench: how soon a Gotify notification reaches forge, and what a catch-up costs.
 *
 *   tools/deno.sh run --allow-all tools/bench/connectors.ts [--rounds 10] [--missed 300]
 *
 * Arms, interleaved round by round against one fake Gotify server (its own process):
 *   forge stream   forge's GotifyClient on `/stream`: push -> onMessage.
 *   poll 1 s       the baseline a REST-only client has (npm's gotify-client has no stream):
 *                  `GET /message?limit=1` every second until the new id shows.
 * Then the catch-up: the stream dropped and refused while `--missed` messages are sent, then
 * allowed again: the time until every one is handled, and the /message pages it read.
 * Each arm prints its median and range in ms, and the requests it made per notification.
 */
import { startFakeGotify } from "../../fixtures/gotify/mod.ts";
import { cursorFile, GotifyClient } from "../../subsystems/connectors/gotify_client.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { stringFlag } from "./support/flags.ts";

const ROUNDS = Number(stringFlag("rounds", "10"));
const MISSED = Number(stringFlag("missed", "300"));

const dir = await Deno.makeTempDir({ prefix: "forge-bench-gotify-" });
const fake = await startFakeGotify(dir);
const log = async () =>
  (await (await fetch(`${fake.url}/__fake/log`)).json()) as { method: string; path: string }[];
const requests = async () => (await log()).length;
/** Requests since `from` other than the pushes themselves: what the reading side made. */
const reads = async (from: number) =>
  (await log()).slice(from).filter((r) => !(r.method === "POST" && r.path === "/message")).length;
const seen = new Map<number, number>();
let handled = 0;
let waiter: (() => void) | null = null;
const client = new GotifyClient({
  url: fake.url,
  token: fake.clientToken,
  cursor: cursorFile(new StateKeeper(memoryLogger()), `${dir}/cursor.json`),
  onMessage: (m) => {
    handled++;
    seen.set(m.id, performance.now());
    waiter?.();
  },
  onState: () => {},
  log: memoryLogger(),
  backoffMs: { first: 20, max: 200 },
});
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)];
  return `median ${med.toFixed(1)} ms, range ${s[0].toFixed(1)}-${s.at(-1)!.toFixed(1)} ms`;
};

try {
  client.start();
  while (!client.connected) await new Promise((r) => setTimeout(r, 10));
  const arms = { stream: [] as number[], poll: [] as number[] };
  const reqs = { stream: 0, poll: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    // forge stream
    let before = await requests();
    const t0 = performance.now();
    const id = await fake.push("ci", { message: `stream ${round}` });
    // A fresh wait for each message handled: the stream may still be bringing the poll arm's
    // last one, and a wait it already settled would spin here, never letting the socket read.
    while (!seen.has(id)) await new Promise<void>((r) => (waiter = r));
    arms.stream.push(seen.get(id)! - t0);
    reqs.stream += await reads(before);
    // poll 1 s baseline: a poller that runs all the time meets the push at a random phase, so
    // its next read comes 0-1 s after the push.
    before = await requests();
    const t1 = performance.now();
    const target = await fake.push("ci", { message: `poll ${round}` });
    await new Promise((r) => setTimeout(r, Math.random() * 1000));
    for (;;) {
      const page = await (await fetch(`${fake.url}/message?limit=1`, {
        headers: { "X-Gotify-Key": fake.clientToken },
      })).json();
      if (page.messages[0]?.id >= target) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    arms.poll.push(performance.now() - t1);
    reqs.poll += await reads(before);
  }
  console.log(`notification latency over ${ROUNDS} rounds (push -> seen):`);
  console.log(
    `  forge stream  ${stats(arms.stream)}; requests/notification beyond the push: ` +
      `${(reqs.stream / ROUNDS).toFixed(1)}`,
  );
  console.log(
    `  poll 1 s      ${stats(arms.poll)}; requests/notification beyond the push: ` +
      `${(reqs.poll / ROUNDS).toFixed(1)}`,
  );

  await fake.acceptStreams(false);
  await fake.dropStreams();
  while (client.connected) await new Promise((r) => setTimeout(r, 10));
  let last = 0;
  for (let i = 0; i < MISSED; i++) last = await fake.push("ci", { message: `missed ${i}` });
  const before = await requests();
  const t2 = performance.now();
  await fake.acceptStreams(true);
  while (!seen.has(last)) await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - t2;
  const pages = ((await (await fetch(`${fake.url}/__fake/log`)).json()) as { path: string }[])
    .slice(before).filter((r) => r.path === "/message").length;
  console.log(
    `catch-up of ${MISSED} missed: ${ms.toFixed(1)} ms until all handled (incl. reconnect ` +
      `back-off), ${pages} /message pages read; ${handled} handled in all, ${seen.size} distinct`,
  );
} finally {
  await client.stop();
  await fake.stop();
  await Deno.remove(dir, { recursive: true });
}
