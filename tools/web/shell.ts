/**
 * The page's shell as the web program serves it: the HTML, the web app manifest (installable,
 * standalone), the icons, and the service worker's script with the list of files it keeps so
 * the page opens with no network.
 */
const HERE = new URL(".", import.meta.url).pathname;

/** The icons (tools/web/icons/, rendered from icon.svg by render.ts), by size in pixels. */
const ICONS = [192, 512, 180] as const;

/** The page's chrome colour: the rail's. */
const THEME = "#1f2023";

/**
 * The page's HTML. `preload` names chunks fetched beside the entry (the conversation's, so
 * opening a seat does not wait for its code).
 */
export const indexHtml = (preload: string[]) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover, interactive-widget=resizes-content">
<meta name="theme-color" content="${THEME}">
<title>forge</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icons/icon-192.png" type="image/png">
<link rel="apple-touch-icon" href="/icons/icon-180.png">
<link rel="stylesheet" href="/xterm.css">
<link rel="stylesheet" href="/hljs.css">
<link rel="stylesheet" href="/style.css">
${preload.map((src) => `<link rel="modulepreload" href="${src}">`).join("\n")}
</head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body>
</html>
`;

/** The web app manifest: a standalone app named forge, started at the home, with its icons. */
export const MANIFEST = JSON.stringify(
  {
    name: "forge",
    short_name: "forge",
    description: "Every forge you run: its seats, their asks and their conversations",
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#f7f7f5",
    theme_color: THEME,
    icons: [
      ...[192, 512].map((n) => ({
        src: `/icons/icon-${n}.png`,
        sizes: `${n}x${n}`,
        type: "image/png",
        purpose: "any",
      })),
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  },
  null,
  2,
);

/** An icon's file by its served path (`/icons/icon-192.png`), or null. */
export function iconFile(path: string): string | null {
  const size = /^\/icons\/icon-(\d+)\.png$/.exec(path)?.[1];
  return size && ICONS.some((n) => String(n) === size) ? `${HERE}icons/icon-${size}.png` : null;
}

/** The files the worker keeps: everything the page needs to draw with no network. */
export function shellFiles(chunks: string[]): string[] {
  return [
    "/",
    "/app.js",
    "/style.css",
    "/xterm.css",
    "/hljs.css",
    "/config.json",
    "/manifest.webmanifest",
    ...ICONS.map((n) => `/icons/icon-${n}.png`),
    ...chunks,
  ];
}

/**
 * The worker's script: its bundle after `FORGE_SHELL`, this build's name and its files. A new
 * build is a new script, so the browser installs it and the worker keeps the new files.
 */
export async function workerScript(bundle: string, build: string, files: string[]) {
  const code = await Deno.readTextFile(bundle);
  return `const FORGE_SHELL = ${JSON.stringify({ build, files })};\n${code}`;
}
