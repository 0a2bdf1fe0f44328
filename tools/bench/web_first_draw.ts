/**
 * How long the web client takes to first draw a fleet of 20 seats, beside the wire's own cost.
 *
 * World: a forge on the seat fixtures with 20 projects (their leads asleep, so the home carries
 * 20 seat rows without 20 CLIs on a shared machine), the web program pointed at it, and Debian's
 * Chromium through playwright-core. Arms, paired and interleaved per round:
 * - `wire`: the protocol client (Deno) dials, reads the greeting and the settings frame,
 *   subscribes home and holds its snapshot - the socket's own floor;
 * - `page`: a fresh browser page navigates to the web client and draws all 20 seat rows on the
 *   home, timed by the page's own clock from navigation start (load, bundle parse, connect,
 *   greeting, home snapshot, draw).
 * Prints medians and ranges, and what each arm moved (snapshot bytes; rows drawn).
 *
 *   tools/deno.sh task bench web_first_draw [--rounds N]
 */
import { chromium } from "playwright-core";
import { seatWorld } from "../../tests/seats_harness.ts";
import { CHROMIUM, startWeb } from "../../tests/web_harness.ts";
import { ForgeClient } from "../client_lib.ts";

const SEATS = 20;
const at = Deno.args.indexOf("--rounds");
const ROUNDS = at >= 0 ? Number(Deno.args[at + 1]) : 7;

const world = await seatWorld(
  Array.from(
    { length: SEATS },
    (_, i) => ({ name: `p${String(i + 1).padStart(2, "0")}`, autoStart: false }),
  ),
);
const forge = await world.startForge();
const web = await startWeb(forge.url);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });

async function wireArm(): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const c = await ForgeClient.connect(forge.url);
  await c.next((m) => m.kind === "settings");
  c.send({ kind: "subscribe", what: "home" });
  const snap = await c.next((m) => m.kind === "snapshot");
  const ms = performance.now() - t0;
  await c.close();
  return { ms, bytes: JSON.stringify(snap).length };
}

const marks: Record<string, number[]> = {};

async function pageArm(): Promise<{ ms: number; rows: number }> {
  const page = await browser.newPage();
  await page.goto(web.url, { waitUntil: "commit" });
  // The page's own clock starts at navigation; the home marks when its rows are painted.
  const ms = await page.waitForFunction(
    `document.querySelectorAll('[data-testid^="seat-Acme/"]').length >= ${SEATS} &&
      performance.getEntriesByName("forge:home-drawn")[0]?.startTime`,
    undefined,
    { timeout: 60_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
  const rows = await page.locator('[data-testid^="seat-Acme/"]').count();
  const seen = await page.evaluate(
    `performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])`,
  ) as [string, number][];
  for (const [name, t] of seen) (marks[name] ??= []).push(t);
  await page.close();
  return { ms, rows };
}

const wire: number[] = [];
const pageMs: number[] = [];
let bytes = 0;
let rows = 0;
try {
  // One unmeasured round of each warms the server's home read and the browser's cache of nothing
  // (the web program serves with no-store, so every page load fetches the bundle again).
  await wireArm();
  await pageArm();
  for (let r = 0; r < ROUNDS; r++) {
    const arms = r % 2 === 0 ? ["wire", "page"] : ["page", "wire"];
    for (const arm of arms) {
      if (arm === "wire") {
        const got = await wireArm();
        wire.push(got.ms);
        bytes = got.bytes;
      } else {
        const got = await pageArm();
        pageMs.push(got.ms);
        rows = got.rows;
      }
    }
  }
} finally {
  await browser.close();
  await web.stop();
  await world.dispose();
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(0)} ms (range ${s[0].toFixed(0)}-${
    s.at(-1)!.toFixed(0)
  } ms, n=${s.length})`;
};
console.log(`web_first_draw: ${SEATS} seats, ${ROUNDS} interleaved rounds`);
console.log(`  wire (protocol client: dial -> home snapshot, ${bytes} B): ${stat(wire)}`);
console.log(`  page (navigation -> ${rows} seat rows drawn):            ${stat(pageMs)}`);
for (const [name, ts] of Object.entries(marks)) {
  console.log(`    of which, navigation -> ${name.padEnd(15)} ${stat(ts.slice(-ROUNDS))}`);
}
