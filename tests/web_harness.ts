import {
  type Browser,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { assert } from "./assert.ts";
import {
  type RunningForge,
  type ScriptSource,
  type SeatWorld,
  seatWorld,
} from "./seats_harness.ts";

/**
 * The web client's test world: the seat tests' world (real seats on the fake API), a forge
 * started on it as a process, the web program (`deno task web`) pointed at that forge, and
 * Debian's Chromium driven by playwright-core. Screenshots land in `$FORGE_WEB_SHOTS` (the
 * screenshots task points it at docs/screenshots) or a temp dir named in the test output.
 */

const REPO = new URL("..", import.meta.url).pathname;
/** Debian's Chromium; FORGE_CHROMIUM names another binary. */
export const CHROMIUM = Deno.env.get("FORGE_CHROMIUM") ?? "/usr/bin/chromium";

/** A phone, as the phone tests hold one: 390 x 844 CSS pixels, touch, a pixel ratio of 2. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
} satisfies BrowserContextOptions;

/** The element's box lies whole inside the screen. */
export async function onScreen(page: Page, what: Locator, name: string): Promise<void> {
  const box = await what.boundingBox();
  const { width, height } = page.viewportSize()!;
  assert(box !== null, `${name} is not drawn`);
  assert(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height,
    `${name} at ${JSON.stringify(box)}, outside the ${width}x${height} screen`,
  );
}

export interface WebWorld extends AsyncDisposable {
  world: SeatWorld;
  forge: RunningForge;
  /** The web program's own address. */
  webUrl: string;
  browser: Browser;
  page: Page;
  /** Stops forge and starts it again on the same port (the page is pointed at one address). */
  restartForge(): Promise<void>;
  /** Saves a screenshot as `<name>.png`; returns its path. */
  shot(name: string): Promise<string>;
}

export async function webWorld(
  projects: { name: string; autoStart?: boolean }[],
  opts: {
    viewport?: { width: number; height: number };
    /** The page's device (a phone's viewport, touch, pixel ratio); over `viewport`. */
    device?: BrowserContextOptions;
    script?: ScriptSource;
    /** More Chromium flags (a fake microphone's). */
    args?: string[];
    /** Appended to the world's forge.toml before forge starts (after `before` ran). */
    config?: string | ((world: SeatWorld) => string);
    /** Runs on the world before forge starts (a git repo, a remembered session). */
    before?: (world: SeatWorld) => Promise<void>;
    /** More of forge's environment, after `before` ran (a stand-in `gh` first on PATH). */
    env?: (world: SeatWorld) => Record<string, string>;
  } = {},
): Promise<WebWorld> {
  const world = await seatWorld(projects, opts.script);
  await opts.before?.(world);
  const config = typeof opts.config === "function" ? opts.config(world) : opts.config;
  if (config) await Deno.writeTextFile(world.configPath, `\n${config}\n`, { append: true });
  const env = opts.env?.(world) ?? {};
  let forge = await world.startForge(env);
  const port = forge.port;
  const web = await startWeb(forge.url);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--autoplay-policy=no-user-gesture-required", ...opts.args ?? []],
  });
  const page = await browser.newPage({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    // playwright's waitForFunction evaluates its string in the page, which the page's own
    // policy forbids (no eval). The policy itself is tested in web_draw_test.ts on a page
    // that keeps it.
    bypassCSP: true,
    ...opts.device,
  });
  const consoleErrors: string[] = [];
  page.on("pageerror", (e) => consoleErrors.push(e.message));
  const shots = Deno.env.get("FORGE_WEB_SHOTS") ??
    await Deno.makeTempDir({ prefix: "forge-web-shots-" });
  await Deno.mkdir(shots, { recursive: true });
  const w: WebWorld = {
    world,
    get forge() {
      return forge;
    },
    // Every frame the page reads is checked against protocol/'s schemas (drift fails the test).
    webUrl: `${web.url}?validate=1`,
    browser,
    page,
    async restartForge() {
      await forge.stop();
      forge = await world.startForge(env, port);
    },
    async shot(name) {
      const path = `${shots}/${name}.png`;
      await page.screenshot({ path });
      console.log(`screenshot: ${path}`);
      return path;
    },
    async [Symbol.asyncDispose]() {
      // Every forge the page held (a page may hold several) read its frames on the schema.
      const drift = await page.evaluate(
        "globalThis.forgeDebug?.forges.list.flatMap((c) => c.stats.schemaErrors) ?? []",
      ).catch(() => []) as string[];
      await browser.close().catch(() => {});
      await web.stop();
      await world.dispose();
      if (drift.length > 0) {
        throw new Error(`the page read frames off the protocol schema: ${drift.slice(0, 3)}`);
      }
      if (consoleErrors.length > 0) {
        throw new Error(`the page threw: ${consoleErrors.slice(0, 3).join(" | ")}`);
      }
    },
  };
  return w;
}

/**
 * `deno task web --forge URL --port 0`, as a person runs it (`more` adds options: `--cert`...);
 * reads its `WEB <url> (...)` line off stdout.
 */
export async function startWeb(forgeUrl: string, more: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "web", "--forge", forgeUrl, "--port", "0", ...more],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  const drained = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) err += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let line = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  while (!line) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the web program exited before listening:\n${err}`);
    out += value;
    line = /WEB [^\n]*(?=\n)/.exec(out)?.[0] ?? "";
  }
  const url = line.split(" ")[1];
  clearTimeout(timer);
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url,
    /** The whole line it printed on listening: where, and what forge must allow. */
    line,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await drained;
    },
  };
}

/** The text of every element matching `selector`, in order. */
export function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).allTextContents();
}
