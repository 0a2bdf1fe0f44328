/**
 * Bundles the page with `deno bundle` (offline once its esbuild is cached from npm) into
 * tools/web/dist/<pid>/, and finds xterm.js's stylesheet in the bundle's own node_modules. Runs
 * on every start of the web program, so a fresh clone needs no build step of its own.
 */
const HERE = new URL(".", import.meta.url).pathname;
const DIST = `${HERE}dist`;

export interface Bundle {
  /** The entry the page loads (`/app.js`). */
  app: string;
  /** Where the entry's chunks sit: each is served under its own name. */
  dir: string;
  xtermCss: string;
  /** highlight.js's own light theme, for the page's code blocks and diffs. */
  hljsCss: string;
  /** The service worker (app/pwa/sw.ts): one classic script, no chunks, served as `/sw.js`. */
  worker: string;
  /** The entry's chunks by their served names (`/chat-<hash>.js`), for the worker's cache. */
  chunks: string[];
}

/** This program's hold on its folder: a lock the kernel drops however the program ends. */
let held: Deno.FsFile | null = null;

/**
 * Empties `dist` of what no running web program serves: a folder whose `.held` no program holds
 * locked (its program ended, or never locked it), and the files an older layout wrote at its top.
 * `pid`'s own folder goes too: chunks of an older build would be served beside the new ones. A
 * lock rather than a look at /proc: the web program reads only what it serves.
 */
export async function clearEnded(dist: string, pid: number): Promise<void> {
  const entries = await Array.fromAsync(Deno.readDir(dist)).catch(() => []);
  for (const entry of entries) {
    const path = `${dist}/${entry.name}`;
    if (entry.isDirectory && entry.name !== String(pid) && await heldByAnother(path)) continue;
    await Deno.remove(path, { recursive: true }).catch(() => {
      // Gone already: another program starting cleared it first.
    });
  }
}

/** Whether a running program holds `folder`'s lock. */
async function heldByAnother(folder: string): Promise<boolean> {
  const file = await Deno.open(`${folder}/.held`, { read: true, write: true }).catch(() => null);
  if (!file) return false; // never locked: no program serves it
  using _ = file;
  return !(await file.tryLock(true));
}

/** Makes `outdir` this program's, held for as long as it runs. */
async function hold(outdir: string): Promise<void> {
  await Deno.mkdir(outdir, { recursive: true });
  held = await Deno.open(`${outdir}/.held`, { read: true, write: true, create: true });
  await held.tryLock(true);
}

/** Runs `deno bundle` with the page's config; throws with its own words when it fails. */
async function denoBundle(args: string[]): Promise<void> {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--config", `${HERE}deno.json`, "--platform", "browser", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (run.code !== 0) {
    throw new Error(
      `forge web: bundling the page failed:\n${new TextDecoder().decode(run.stderr)}`,
    );
  }
}

export async function bundleApp(pid = Deno.pid): Promise<Bundle> {
  // Each web program bundles into a folder of its own: two from one checkout (a page for the
  // phone beside a local one) each wiped and rewrote the other's chunks, and a page asking for a
  // chunk of the first one's build got a 404. Folders of programs that have ended go; this one's
  // is held (a lock) for as long as it runs.
  const outdir = `${DIST}/${pid}`;
  await clearEnded(DIST, pid);
  await hold(outdir);
  await Promise.all([
    denoBundle([
      "--minify",
      "--sourcemap=linked",
      // The seat's heavy views are imported when first drawn (views/lazy.tsx): their code
      // lands in chunks beside the entry, which the page fetches then.
      "--code-splitting",
      "--outdir",
      outdir,
      `${HERE}app/main.tsx`,
    ]),
    // The worker is a classic script (every browser that installs a page runs one), bundled
    // whole into its own directory so its code never lands among the page's chunks.
    denoBundle([
      "--minify",
      "--format",
      "iife",
      "--output",
      `${outdir}/worker/sw.js`,
      `${HERE}app/pwa/sw.ts`,
    ]),
  ]);
  const chunks: string[] = [];
  for await (const entry of Deno.readDir(outdir)) {
    if (entry.isFile && entry.name.endsWith(".js") && entry.name !== "main.js") {
      chunks.push(`/${entry.name}`);
    }
  }
  const xtermCss = `${HERE}node_modules/@xterm/xterm/css/xterm.css`;
  try {
    await Deno.stat(xtermCss);
  } catch {
    throw new Error(
      `forge web: xterm.js's stylesheet is missing at ${xtermCss}`,
    );
  }
  const hljsCss = `${HERE}node_modules/highlight.js/styles/github.css`;
  await Deno.stat(hljsCss).catch(() => {
    throw new Error(`forge web: highlight.js's stylesheet is missing at ${hljsCss}`);
  });
  return {
    app: `${outdir}/main.js`,
    dir: outdir,
    xtermCss,
    hljsCss,
    worker: `${outdir}/worker/sw.js`,
    chunks: chunks.sort(),
  };
}
