/**
 * The web client's first draws and memory, this branch's page beside today's (main's).
 *
 * World: a forge on the seat fixtures with 20 projects (their leads asleep, so the home carries
 * 20 seat rows without 20 CLIs on a shared machine), one of them a remembered seat of 5,000
 * numbered turns (tests/numbered_history.ts), and two web programs pointed at it: this
 * checkout's page and `--baseline REF`'s (default main), written out with git archive. Debian's
 * Chromium through playwright-core. Per round, paired and interleaved (the order alternates):
 * - `wire`: the protocol client dials, reads the greeting and settings, and holds the home
 *   snapshot, then the seat's - the socket's own floor beside the pages' figures;
 * - `home`: navigation -> the 20 seat rows painted (the page's `forge:home-drawn` mark);
 * - `seat`: navigation -> the 5,000-turn seat's newest prompt drawn;
 * - `walk` (every `--walk-every` rounds, default once): the seat walked to its first prompt by
 *   scrolling to the top, then the page's JS heap after a forced collection, and the elements
 *   the DOM holds.
 *
 *   tools/deno.sh task bench web_first_draw [--rounds N] [--turns N] [--baseline REF]
 */
import { chromium } from "playwright-core";
import { promptOf, rememberHistory } from "../../tests/numbered_history.ts";
import { seatWorld } from "../../tests/seats_harness.ts";
import { CHROMIUM, startWeb } from "../../tests/web_harness.ts";
import { ForgeClient } from "../client_lib.ts";
import { spread } from "./support/stats.ts";
import { checkoutPage, homeDraw, seatArm, serveFrom } from "./support/web_page.ts";
import { stringFlag } from "./support/flags.ts";

const SEATS = 20;
const ROUNDS = Number(stringFlag("--rounds", "5"));
const TURNS = Number(stringFlag("--turns", "5000"));
const BASELINE = stringFlag("--baseline", "main");
const WALK_EVERY = Number(stringFlag("--walk-every", String(ROUNDS)));
const LONG = { org: "Acme", project: "long", label: "lead" };

const projects = Array.from(
  { length: SEATS - 1 },
  (_, i) => ({ name: `p${String(i + 1).padStart(2, "0")}`, autoStart: false }),
);
// Written out before forge starts: a ref that will not check out leaves nothing running.
const baselineDir = await checkoutPage(BASELINE);
const world = await seatWorld([...projects, { name: "long", autoStart: false }]);
await rememberHistory(world.dir, LONG, TURNS);
const forge = await world.startForge();
const pages = {
  branch: await startWeb(forge.url),
  [BASELINE]: await serveFrom(baselineDir, forge.url),
};
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });

async function wireArm(): Promise<{ home: number; seat: number; bytes: number }> {
  const t0 = performance.now();
  const c = await ForgeClient.connect(forge.url);
  await c.next((m) => m.kind === "settings");
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  const home = performance.now() - t0;
  c.send({ kind: "subscribe", what: { session: LONG } });
  const snap = await c.next((m) => m.kind === "snapshot");
  const seat = performance.now() - t0;
  await c.close();
  return { home, seat, bytes: JSON.stringify(snap).length };
}

type Figures = { home: number[]; seat: number[]; walk: number[]; heap: number[]; nodes: number[] };
const empty = (): Figures => ({ home: [], seat: [], walk: [], heap: [], nodes: [] });
const got: Record<string, Figures> = { wire: empty(), branch: empty(), [BASELINE]: empty() };
let seatBytes = 0;

try {
  // One unmeasured pass of each warms the server's reads (the web programs serve with no-store,
  // so every page load fetches its bundle again).
  await wireArm();
  for (const p of Object.values(pages)) await homeDraw(browser, p.url, SEATS);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["wire", "branch", BASELINE] : [BASELINE, "branch", "wire"];
    const walk = (r + 1) % WALK_EVERY === 0;
    for (const arm of order) {
      if (arm === "wire") {
        const w = await wireArm();
        got.wire.home.push(w.home);
        got.wire.seat.push(w.seat);
        seatBytes = w.bytes;
        continue;
      }
      const url = pages[arm].url;
      got[arm].home.push(await homeDraw(browser, url, SEATS));
      const s = await seatArm(browser, `${url}#/seat/Acme/long/lead`, promptOf(TURNS), walk);
      got[arm].seat.push(s.drawMs);
      if (s.walkMs !== null) got[arm].walk.push(s.walkMs);
      if (s.heapMb !== null) got[arm].heap.push(s.heapMb);
      if (s.walkMs !== null) got[arm].nodes.push(s.nodes);
    }
  }
} finally {
  await browser.close();
  for (const p of Object.values(pages)) await p.stop();
  await world.dispose();
  await Deno.remove(baselineDir, { recursive: true });
}

const ms = (xs: number[]) => xs.length ? `${spread(xs, 0)} ms` : "-";
console.log(
  `web_first_draw: ${SEATS} seats, a ${TURNS}-turn seat, ${ROUNDS} interleaved rounds ` +
    `(median (min..max)); this branch beside ${BASELINE}`,
);
console.log(
  `  floor, wire (protocol client): home ${ms(got.wire.home)}, ` +
    `+ seat snapshot ${ms(got.wire.seat)} (${seatBytes} B)`,
);
for (const arm of ["branch", BASELINE]) {
  const f = got[arm];
  console.log(`  ${arm.padEnd(8)} home first draw ${ms(f.home)} · seat first draw ${ms(f.seat)}`);
  if (f.walk.length) {
    console.log(
      `           walked to the first turn in ${ms(f.walk)} · JS heap after ` +
        `${spread(f.heap, 1)} MB · ${spread(f.nodes, 0)} elements in the DOM`,
    );
  }
}
