/**
 * Browser snapshot bench: forge's browser_snapshot against Playwright's own aria snapshot, on
 * every page of the corpus (fixtures/browser_corpus), on one Chromium.
 *
 *   tools/deno.sh run --allow-all tools/bench/browser_snapshot.ts [--rounds 15]
 *
 * Arms, paired and interleaved (the order flips each round) on the same tab:
 * - forge: the browser_snapshot tool as a seat calls it - the seat's tab, the page driver's
 *   Worker, Playwright's `ariaSnapshot({mode: "ai"})`, the password mask, the rendered answer.
 * - playwright: `page.ariaSnapshot({mode: "ai"})` on a playwright-core connection of the bench's
 *   own to the same Chromium - the floor: forge's tool cannot take less than the call it makes.
 * Per page: each arm's median (min..max) in ms, forge's cost over the floor per pair, and the
 * sizes: the yaml each arm returned (characters, lines) and forge's whole answer. First, once:
 * what the page driver costs to start (its first call, and the RSS it adds). Goals, per page: the
 * same yaml as Playwright's, and a median cost over the floor of at most 15 ms or 20% of it.
 */
import { chromium, type Page } from "playwright-core";
import { CORPUS_PAGES, corpusServer, SETTLED_TEXT } from "../../fixtures/browser_corpus/server.ts";
import { browserTools, yamlOf } from "../../tests/browser_tools.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { median } from "./support/stats.ts";
import { spread } from "./support/stats.ts";
import { numberFlag } from "./support/flags.ts";

const ROUNDS = numberFlag("rounds", 15);
const SEAT = { org: "Acme", project: "proj", label: "lead" };
/** The goal: forge adds at most this much over Playwright's own call, or this share of it. */
const OVER_MS = 15;
const OVER_SHARE = 0.2;

const rssMb = () => Deno.memoryUsage().rss / 1048576;

await using corpus = corpusServer();
await using tools = await browserTools();
const host = tools.browser.profiles.forSeat(SEAT);
const tab = await host.tabFor(SEAT);
// What the page driver costs to start: the first page tool starts its Worker, loads Playwright
// there and attaches it; this process's RSS before and after (the bench's own playwright-core is
// loaded by then, but not attached).
const rssBefore = rssMb();
const started = performance.now();
const first = await tools.run("navigate", { url: corpus.page("states") });
if (first.isError) throw new Error(first.text);
console.log(
  `driver start: first call ${(performance.now() - started).toFixed(0)} ms (a later ` +
    `navigate+snapshot is the forge column below plus the load); RSS ${rssBefore.toFixed(0)} -> ` +
    `${rssMb().toFixed(0)} MB`,
);
const pw = await chromium.connectOverCDP(host.devtoolsUrl!, { noDefaults: true, isLocal: true });

/** The bench's own Playwright page for forge's tab (matched by its CDP target id). */
async function ownPage(): Promise<Page> {
  for (const page of pw.contexts().flatMap((c) => c.pages())) {
    const session = await page.context().newCDPSession(page);
    const { targetInfo } = await session.send("Target.getTargetInfo");
    await session.detach();
    if (targetInfo.targetId === tab.targetId) return page;
  }
  throw new Error("the bench's Playwright does not see forge's tab");
}
const page = await ownPage();

const lines = (s: string) => s.split("\n").length;
console.log(
  `browser_snapshot vs Playwright's ariaSnapshot({mode: "ai"}), ${ROUNDS} interleaved pairs/page`,
);
console.log(
  "page          forge ms            playwright ms (floor)  forge-floor ms     " +
    "yaml chars/lines forge | playwright   answer chars",
);
for (const name of CORPUS_PAGES) {
  const nav = await tools.run("navigate", { url: corpus.page(name) });
  if (nav.isError) throw new Error(nav.text);
  const settled = SETTLED_TEXT[name];
  if (settled) await tools.run("wait_for", { text: settled });
  const forge: number[] = [], floor: number[] = [], over: number[] = [];
  let answer = "", theirs = "";
  const runForge = async () => {
    const t = performance.now();
    const r = await tools.run("snapshot", {});
    if (r.isError) throw new Error(r.text);
    answer = r.text;
    return performance.now() - t;
  };
  const runFloor = async () => {
    const t = performance.now();
    theirs = await page.ariaSnapshot({ mode: "ai" });
    return performance.now() - t;
  };
  // One unmeasured call of each: the first snapshot of a page installs Playwright's script.
  await runForge();
  await runFloor();
  for (let i = 0; i < ROUNDS; i++) {
    let f: number, p: number;
    if (i % 2 === 0) {
      f = await runForge();
      p = await runFloor();
    } else {
      p = await runFloor();
      f = await runForge();
    }
    forge.push(f);
    floor.push(p);
    over.push(f - p);
  }
  const mine = yamlOf(answer);
  console.log(
    `${name.padEnd(13)} ${spread(forge, 1).padEnd(19)} ${spread(floor, 1).padEnd(22)} ` +
      `${spread(over, 1).padEnd(18)} ${`${mine.length}/${lines(mine)}`.padStart(11)} | ` +
      `${`${theirs.length}/${lines(theirs)}`.padEnd(12)} ${answer.length}`,
  );
  const allowed = Math.max(OVER_MS, OVER_SHARE * median(floor));
  goal(
    `browser_snapshot over Playwright's own, ${name}`,
    median(over) <= allowed,
    `${spread(over, 1)} ms over a floor of ${spread(floor, 1)} ms`,
    `median over the floor <= ${allowed.toFixed(1)} ms`,
  );
  goal(
    `browser_snapshot's yaml is Playwright's, ${name}`,
    mine === theirs,
    `${mine.length} and ${theirs.length} characters`,
    "the same yaml",
  );
}
await pw.close();
finishGoals();
