import type { Browser } from "playwright-core";

/**
 * The web bench's page arms: one fresh page per measurement, timed by the page's own clock from
 * navigation start, and the page's JS heap read through CDP after a forced collection, so two
 * builds of the page are measured the same way. The selectors are ones both builds draw
 * (`seat-<name>` rows, `prompt` rows, the `chat` box and its `history-start` line).
 */

const REPO = new URL("../../../", import.meta.url).pathname;

/**
 * The page's Content-Security-Policy allows no string evaluation, and Playwright's
 * `waitForFunction` runs its predicate in the page by evaluating it: the bench's pages are opened
 * with CSP bypassed, which changes nothing the page itself runs.
 */
const MEASURED = { bypassCSP: true } as const;

/** navigation -> the home's 20 seat rows painted (the page's own `forge:home-drawn` mark). */
export async function homeDraw(browser: Browser, url: string, seats: number): Promise<number> {
  const page = await browser.newPage(MEASURED);
  try {
    await page.goto(url, { waitUntil: "commit" });
    const h = await page.waitForFunction(
      `document.querySelectorAll('[data-testid^="seat-Acme/"]').length >= ${seats} &&
        performance.getEntriesByName("forge:home-drawn")[0]?.startTime`,
      undefined,
      { timeout: 120_000 },
    );
    return await h.jsonValue() as number;
  } finally {
    await page.close();
  }
}

/**
 * navigation -> the seat's newest prompt drawn (checked every animation frame), then the walk to
 * its first prompt (scroll to the top, wait for the page above), then the heap after a forced
 * collection. Answers the three figures and how many prompts the DOM held at the end.
 */
export async function seatArm(
  browser: Browser,
  url: string,
  newest: string,
  walk: boolean,
): Promise<{ drawMs: number; walkMs: number | null; heapMb: number | null; nodes: number }> {
  const page = await browser.newPage({ ...MEASURED, viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(url, { waitUntil: "commit" });
    const h = await page.waitForFunction(
      `[...document.querySelectorAll("[data-testid=prompt]")].some((p) =>
        p.textContent.includes(${JSON.stringify(newest)})) && performance.now()`,
      undefined,
      { timeout: 120_000, polling: "raf" },
    );
    const drawMs = await h.jsonValue() as number;
    if (!walk) return { drawMs, walkMs: null, heapMb: null, nodes: 0 };
    const t0 = performance.now();
    // The page above is asked for when the top is in view; each page is waited for. Both
    // builds keep the seat's turns on the client the console can read (forgeDebug).
    const held = "globalThis.forgeDebug.client.state.seat";
    for (let step = 0; step < 100_000; step++) {
      const before = await page.evaluate(`${held}.cursor === null ? -1 : ${held}.turns.length`);
      if (before === -1) break;
      await page.evaluate(`document.querySelector("[data-testid=chat]").scrollTop = 0`);
      await page.waitForFunction(
        `${held}.turns.length !== ${before} || ${held}.cursor === null`,
        undefined,
        { timeout: 60_000 },
      );
    }
    const walkMs = performance.now() - t0;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    const heap = await cdp.send("Runtime.getHeapUsage");
    const nodes = await page.evaluate(`document.querySelectorAll("*").length`) as number;
    return { drawMs, walkMs, heapMb: heap.usedSize / 2 ** 20, nodes };
  } finally {
    await page.close();
  }
}

/**
 * Today's page, for the baseline arm: `ref`'s tools/web and what it imports written into a temp dir
 * (git archive), so its own web program bundles and serves its own page. Answers the dir.
 */
export async function checkoutPage(ref: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "forge-web-baseline-" });
  const archive = new Deno.Command("git", {
    // The page imports protocol/, tools/ beside it (the reconnect loop it shares with the SDK)
    // and, for its notifications, the notify subsystem's reader and notifier with what they
    // import from server/. All of tools/ (tracked files only): whatever of it `ref` imports.
    args: ["-C", REPO, "archive", ref, "tools", "protocol", "server", "subsystems"],
    stdout: "piped",
  }).spawn();
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(untar.stdin);
  if (!(await archive.status).success || !(await untar.status).success) {
    await Deno.remove(dir, { recursive: true });
    throw new Error(`web bench: ${ref}'s page could not be written out`);
  }
  return dir;
}

/** A web program from `root` (a checkout) on port 0, pointed at `forge`; answers its address. */
export async function serveFrom(root: string, forge: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--config",
      `${root}/tools/web/deno.json`,
      "-A",
      `${root}/tools/web/serve.ts`,
      "--forge",
      forge,
      "--port",
      "0",
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let url = "";
  while (!url) {
    const { value, done } = await reader.read();
    if (done) {
      const err = await new Response(child.stderr).text();
      throw new Error(`web bench: the page at ${root} did not start:\n${err}`);
    }
    out += value;
    url = /WEB (\S+)/.exec(out)?.[1] ?? "";
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  void child.stderr.cancel();
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}
