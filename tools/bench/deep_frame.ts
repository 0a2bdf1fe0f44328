/**
 * Deep-frame bench: what refusing a hostile, deeply nested frame costs the server's one thread,
 * and how long a bystander connection waits meanwhile, beside the same bytes sent flat.
 *
 *   tools/deno.sh task bench deep_frame [--frames 5] [--rounds 3] [--levels 1000000]
 *
 * An in-process server; the attacker is its own process (building its frames does not share the
 * server's thread) and sends --frames frames, each answered before the next. Arms, interleaved:
 *   deep   `{"kind":"ping","x":[[[...]]]}` nested --levels deep (2 bytes a level): refused by the
 *          frame scan at the 64th bracket, before JSON.parse builds anything
 *   flat   the same byte count as one string (`"x":"aaaa..."`): parsed whole and answered pong,
 *          the floor of reading a frame that size at all
 *   idle   no attack: the bystander's pings alone for a second (their own CPU, which the
 *          attack arms' CPU a frame also carries, spread over their window)
 * Per arm: this process's CPU per attacking frame (the server's thread and the bystander's paced
 * pings), and the bystander's ping-to-pong time, median (min..max) and worst.
 */
import process from "node:process";
import { testServer } from "../../tests/harness.ts";
import { spread } from "./support/stats.ts";
import { numberFlag } from "./support/flags.ts";

const FRAMES = numberFlag("--frames", 5);
const ROUNDS = numberFlag("--rounds", 3);
const LEVELS = numberFlag("--levels", 1_000_000);

const attacker = (shape: "deep" | "flat") => `
const ws = new WebSocket(Deno.args[0]);
await new Promise((r) => (ws.onopen = r));
const n = ${LEVELS};
const frame = ${
  shape === "deep"
    ? `'{"kind":"ping","x":' + "[".repeat(n) + "]".repeat(n) + "}"`
    : `'{"kind":"ping","x":"' + "a".repeat(2 * n) + '"}'`
};
let answered = 0;
let wake = null;
ws.onmessage = () => { answered++; wake?.(); };
console.log("ready");
await Deno.stdin.readable.pipeTo(new WritableStream());
for (let i = 0; i < ${FRAMES}; i++) {
  ws.send(frame);
  while (answered <= i) await new Promise((r) => (wake = r));
}
console.log("done");
ws.close();
`;

const cpu: Record<string, number[]> = { deep: [], flat: [], idle: [] };
const pongs: Record<string, number[]> = { deep: [], flat: [], idle: [] };

async function arm(name: "deep" | "flat" | "idle") {
  await using t = await testServer(null);
  const bystander = await t.ready();
  const child = name === "idle" ? null : new Deno.Command(Deno.execPath(), {
    args: ["eval", attacker(name), t.server.url],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const lines = child?.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (lines && !out.includes("ready\n")) out += (await lines.read()).value ?? "";
  let stop = false;
  const pinging = (async () => {
    while (!stop) {
      const sent = performance.now();
      bystander.send({ kind: "ping" });
      await bystander.next((m) => m.kind === "pong");
      pongs[name].push(performance.now() - sent);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const before = process.cpuUsage();
  if (child && lines) {
    const go = child.stdin.getWriter();
    await go.write(new TextEncoder().encode("go\n"));
    await go.close();
    while (!out.includes("done\n")) {
      const r = await lines.read();
      if (r.done) break;
      out += r.value;
    }
    await child.status;
  } else await new Promise((r) => setTimeout(r, 1000));
  const used = process.cpuUsage(before);
  stop = true;
  await pinging;
  cpu[name].push((used.user + used.system) / 1000 / (child ? FRAMES : 1));
}

for (let r = 0; r < ROUNDS; r++) {
  const order: ("deep" | "flat" | "idle")[] = r % 2
    ? ["flat", "deep", "idle"]
    : ["deep", "flat", "idle"];
  for (const name of order) await arm(name);
}
console.log(
  `deep frame, ${ROUNDS} rounds of ${FRAMES} frames of ${(2 * LEVELS / 1e6).toFixed(1)} MB, ` +
    `${navigator.hardwareConcurrency} cores:`,
);
for (const name of ["deep", "flat", "idle"]) {
  const per = name === "idle" ? "CPU over 1 s idle" : "CPU a frame";
  const worst = Math.max(...pongs[name]).toFixed(1);
  console.log(
    `  ${name.padEnd(5)} ${per} ${spread(cpu[name], 1)} ms; bystander pong ` +
      `${spread(pongs[name], 2)} ms, worst ${worst} ms (${pongs[name].length} pings)`,
  );
}
