/**
 * The account gateway's cost: time to first byte and stream throughput of a streamed Messages
 * reply through the gateway, beside the same reply straight from the fake API, in paired,
 * interleaved arms (direct, gateway, direct, gateway...); and the gateway's own CPU per MB it
 * passed, read from /proc for its process. The fake API and the gateway each run as their own
 * process (tools/bench/support/gateway_host.ts), the client here.
 *
 *   deno task bench gateway [--runs=15] [--kb=1024]
 */
import { numberFlag } from "./support/flags.ts";
import { median } from "./support/stats.ts";
const RUNS = numberFlag("--runs", 15);
const KB = numberFlag("--kb", 1024);
const REPO = new URL("../..", import.meta.url).pathname;
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s

/** Runs a process that prints lines; resolves once `ready` matched, with the lines so far. */
async function spawn(args: string[], ready: RegExp) {
  const child = new Deno.Command(Deno.execPath(), { args, cwd: REPO, stdout: "piped" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!ready.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args.join(" ")} exited: ${out}`);
    out += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return { child, out };
}

function cpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime + stime
}

const dir = await Deno.makeTempDir({ prefix: "forge-bench-gateway-" });
// A reply of KB kibibytes of text in 256-character deltas, as many times as the runs need (plus
// the two probes' worth of slack); the small replies are the script's echo fallback.
const big = { content: [{ type: "text", text: "x".repeat(KB * 1024) }], chunk_chars: 256 };
await Deno.writeTextFile(
  `${dir}/big.json`,
  JSON.stringify({ replies: Array(RUNS * 2 + 4).fill(big) }),
);
await Deno.writeTextFile(`${dir}/small.json`, "{}");
const fakeArgs = (script: string) => [
  "run",
  "--allow-net=127.0.0.1",
  "--allow-read",
  "fixtures/fake_api/main.ts",
  "--script",
  script,
];
const bigApi = await spawn(fakeArgs(`${dir}/big.json`), /LISTENING (\d+)/);
const smallApi = await spawn(fakeArgs(`${dir}/small.json`), /LISTENING (\d+)/);
const port = (p: { out: string }) => /LISTENING (\d+)/.exec(p.out)![1];
const account = (name: string, p: { out: string }) =>
  `[[accounts]]\ndisplay_name = "${name}"\nprovider = "anthropic"\ntoken = "sk-bench"\n` +
  `base_url = "http://127.0.0.1:${port(p)}"\n`;
await Deno.writeTextFile(
  `${dir}/forge.toml`,
  account("Big", bigApi) + account("Small", smallApi) +
    `[[orgs]]\nname = "B"\naccounts = ["Big"]\n[[orgs.projects]]\nname = "big"\npath = "${dir}"\n` +
    `[[orgs]]\nname = "S"\naccounts = ["Small"]\n[[orgs.projects]]\nname = "small"\npath = "${dir}"\n`,
);
const host = await spawn(
  ["run", "-A", "tools/bench/support/gateway_host.ts", `${dir}/forge.toml`],
  /READY/,
);
const route = (name: string) => new RegExp(`ROUTE ${name} (\\S+)`).exec(host.out)![1];
const arms = {
  direct: { big: `http://127.0.0.1:${port(bigApi)}`, small: `http://127.0.0.1:${port(smallApi)}` },
  gateway: { big: route("big"), small: route("small") },
};

const body = JSON.stringify({
  model: "claude-bench",
  max_tokens: 64,
  stream: true,
  tools: [{ name: "t", input_schema: { type: "object" } }],
  messages: [{ role: "user", content: "bench" }],
});

/** One streamed request: ms to the first body byte, ms to the last, bytes read. */
async function once(base: string) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/messages?beta=true`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "forge-gateway" },
    body,
  });
  const reader = res.body!.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (bytes === 0) first = performance.now() - t0;
    bytes += value.byteLength;
  }
  if (res.status !== 200) throw new Error(`${base}: HTTP ${res.status}`);
  return { ttfb: first, total: performance.now() - t0, bytes };
}

const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}..${Math.max(...xs).toFixed(2)}`;

// Warm both paths (JIT, connection pools), then the paired, interleaved runs.
for (const a of Object.values(arms)) {
  await once(a.small);
  await once(a.big);
}
const ttfb = { direct: [] as number[], gateway: [] as number[] };
const mbps = { direct: [] as number[], gateway: [] as number[] };
let gatewayBytes = 0;
const cpu0 = cpuMs(host.child.pid);
for (let i = 0; i < RUNS; i++) {
  for (const name of ["direct", "gateway"] as const) {
    ttfb[name].push((await once(arms[name].small)).ttfb);
    const r = await once(arms[name].big);
    mbps[name].push(r.bytes / 1e6 / (r.total / 1000));
    if (name === "gateway") gatewayBytes += r.bytes;
  }
}
const cpu = cpuMs(host.child.pid) - cpu0;

console.log(`gateway bench: ${RUNS} paired runs, reply ${KB} KiB of text in 256-char deltas`);
for (const name of ["direct", "gateway"] as const) {
  console.log(
    `  ${name.padEnd(8)} ttfb median ${median(ttfb[name]).toFixed(2)} ms (${range(ttfb[name])})` +
      `  throughput median ${median(mbps[name]).toFixed(1)} MB/s (${range(mbps[name])})`,
  );
}
console.log(
  `  gateway/direct: ttfb ×${(median(ttfb.gateway) / median(ttfb.direct)).toFixed(2)}, ` +
    `throughput ×${(median(mbps.gateway) / median(mbps.direct)).toFixed(2)}`,
);
const mb = gatewayBytes / 1e6;
console.log(
  `  gateway process CPU: ${cpu} ms for ${mb.toFixed(1)} MB streamed through it ` +
    `(${(cpu / mb).toFixed(2)} ms/MB; includes the ${RUNS} small requests)`,
);

for (const p of [host, bigApi, smallApi]) {
  p.child.kill("SIGTERM");
  await p.child.status;
}
await Deno.remove(dir, { recursive: true });
