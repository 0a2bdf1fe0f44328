import { type BrowserFrame, decodeBrowserFrame, type Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals } from "./assert.ts";

/** The seat every browser test drives. */
export const SEAT = { org: "Acme", project: "proj", label: "lead" };

/** A forge.toml with one project over `path` and the browser's keys. */
export function browserConfig(path: string, browser = ""): string {
  return `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n[[orgs]]\nname = "Acme"\n` +
    `accounts = ["Fake"]\n[[orgs.projects]]\nname = "proj"\npath = "${path}"\n` +
    (browser ? `[browser]\n${browser}\n` : "");
}

/** A test page that reports its clicks and typed values back to the page server. */
export const FORM_PAGE = `<!doctype html><html><head><title>form page</title></head>
<body style="margin:0">
<button id="go" style="position:absolute;left:20px;top:20px;width:200px;height:80px"
  onclick="document.title='clicked';document.getElementById('out').textContent='clicked';
  fetch('/event?what=click')">Press me</button>
<input id="name" style="position:absolute;left:20px;top:140px;width:300px;height:40px"
  oninput="fetch('/event?what=input&value='+encodeURIComponent(this.value))">
<input id="file" type="file" style="position:absolute;left:20px;top:220px"
  onchange="Promise.all([...this.files].map(f=>f.text().then(t=>f.name+':'+t))).then(
  (v)=>fetch('/event?what=file&value='+encodeURIComponent(v.join('|'))))">
<a id="dl" href="/download" download="data.txt" style="position:absolute;left:20px;top:280px">
  get file</a>
<div id="out" style="position:absolute;left:20px;top:340px;font-size:40px">waiting</div>
<a id="more" href="#more" style="position:absolute;left:20px;top:420px;font-size:30px">more</a>
</body></html>`;

/** A page of form controls, a dialog and a link, for the agent's tools. */
export const WIDGETS_PAGE = `<!doctype html><html><head><title>widgets</title></head><body>
<select id="color" onchange="fetch('/event?what=select&value='+this.value)">
  <option value="r">Red</option><option value="g">Green</option></select>
<label><input id="agree" type="checkbox"
  onchange="fetch('/event?what=check&value='+this.checked)"> I agree</label>
<input id="q" onkeydown="if(event.key==='Enter')fetch('/event?what=enter&value='+this.value)">
<button id="ask" onclick="const r=confirm('sure?');fetch('/event?what=confirm&value='+r)">Ask</button>
<a id="next" href="/form">next page</a>
<p id="late"></p><script>setTimeout(()=>{document.getElementById('late').textContent='arrived'},300)</script>
</body></html>`;

/**
 * A page for the agent's finer tools: console lines at each level (lib.js logs at debug), a
 * button that POSTs to a JSON API, an HTML5 draggable card and its drop zone, a knob dragged with
 * the plain mouse, a colour-scheme listener, and a form with two invalid fields. Each outcome is
 * reported to `/event`.
 */
export const TOOLS_PAGE =
  `<!doctype html><html><head><title>tools</title><link rel="icon" href="data:,">
<script src="/lib.js"></script></head><body style="margin:0">
<script>console.log("hello", 42); console.warn("careful"); console.error("broken thing");</script>
<button id="load" style="position:absolute;left:20px;top:20px;width:160px;height:40px"
  onclick="fetch('/api/data?x=1',{method:'POST',body:'q=7'}).then((r)=>r.json()).then((j)=>{
  got.textContent='got '+j.items.length})">Load data</button>
<div id="got" style="position:absolute;left:200px;top:20px">none</div>
<div id="card" draggable="true" ondragstart="event.dataTransfer.setData('text/plain','card-7')"
  style="position:absolute;left:20px;top:100px;width:100px;height:60px">Card</div>
<div id="zone" ondragover="event.preventDefault()" ondrop="event.preventDefault();
  fetch('/event?what=drop&value='+event.dataTransfer.getData('text/plain'))"
  style="position:absolute;left:300px;top:100px;width:150px;height:100px">Drop zone</div>
<div id="knob" style="position:absolute;left:20px;top:250px;width:40px;height:40px">Knob</div>
<div id="end" style="position:absolute;left:400px;top:300px;width:100px;height:100px">End</div>
<form id="signup" name="signup" style="position:absolute;left:20px;top:450px">
<label for="email">Email</label><input id="email" name="email" type="email" required value="nope">
<input name="pw" type="password" value="secret">
<select name="plan"><option value="f">Free</option><option value="p" selected>Pro</option></select>
<label><input type="checkbox" name="tos" required> Terms</label><button>Sign up</button></form>
<script>
let down = false, moves = 0;
knob.addEventListener("mousedown", () => { down = true; moves = 0; });
document.addEventListener("mousemove", (e) => { if (down && (e.buttons & 1)) moves++; });
document.addEventListener("mouseup", (e) => { if (!down) return; down = false;
  fetch("/event?what=mousedrag&value=" + e.clientX + "," + e.clientY + "&moves=" + moves); });
matchMedia("(prefers-color-scheme: dark)").addEventListener("change",
  (e) => fetch("/event?what=dark&value=" + e.matches));
</script></body></html>`;

/** A still page whose big number counts the clicks: each press repaints it once (the bench). */
export const COUNTER_PAGE = `<!doctype html><html><head><title>counter</title></head>
<body style="margin:0;font-size:200px"><div id="n">0</div><script>
document.addEventListener("mousedown", () => { n.textContent = +n.textContent + 1; });
</script></body></html>`;

/** A page that plays a 440 Hz tone from load (Chromium runs with autoplay allowed). */
export const TONE_PAGE = `<!doctype html><html><head><title>tone</title></head><body>tone<script>
const ctx = new AudioContext(); const osc = ctx.createOscillator(); const gain = ctx.createGain();
gain.gain.value = 0.5; osc.frequency.value = 440; osc.connect(gain).connect(ctx.destination);
osc.start();</script></body></html>`;

/** A page that paints every animation frame, for the bench. */
export const ANIMATED_PAGE = `<!doctype html><html><head><title>animated</title></head>
<body style="margin:0"><canvas id="c" width="1280" height="720"></canvas><script>
const c = document.getElementById("c").getContext("2d"); let t = 0;
function paint() { t++; c.fillStyle = "hsl(" + (t % 360) + ",70%,50%)"; c.fillRect(0,0,1280,720);
  c.fillStyle = "#fff"; c.font = "60px sans-serif"; c.fillText("frame " + t, 100 + (t*7)%900, 360);
  requestAnimationFrame(paint); }
paint();</script></body></html>`;

/** A loopback page server: the test pages, `/event` records, `/download` bytes. */
export function pageServer() {
  const events: Record<string, string>[] = [];
  const waiters: (() => void)[] = [];
  const download = "forge-download-".repeat(1000);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/event") {
      events.push(Object.fromEntries(url.searchParams));
      for (const w of waiters.splice(0)) w();
      return new Response("ok");
    }
    if (url.pathname === "/api/data") {
      return new Response(JSON.stringify({ items: [1, 2, 3] }), {
        headers: { "content-type": "application/json" },
      });
    }
    if (url.pathname === "/lib.js") {
      return new Response('console.debug("lib loaded");', {
        headers: { "content-type": "text/javascript" },
      });
    }
    if (url.pathname === "/download") {
      return new Response(download, {
        headers: { "content-type": "application/octet-stream" },
      });
    }
    const page = url.pathname === "/animated"
      ? ANIMATED_PAGE
      : url.pathname === "/tone"
      ? TONE_PAGE
      : url.pathname === "/counter"
      ? COUNTER_PAGE
      : url.pathname === "/widgets"
      ? WIDGETS_PAGE
      : url.pathname === "/tools"
      ? TOOLS_PAGE
      : FORM_PAGE;
    return new Response(page, { headers: { "content-type": "text/html" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    events,
    download,
    /** Waits for an event matching `pred` (bounded as a failure, never as a pass). */
    async event(pred: (e: Record<string, string>) => boolean, ms = 30_000) {
      const until = performance.now() + ms;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (performance.now() > until) {
          throw new Error(`no page event matched; saw ${JSON.stringify(events)}`);
        }
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** The browser frames a client has received, decoded. */
export function framesOf(c: ForgeClient): BrowserFrame[] {
  return c.frames.flatMap((f) => {
    if (f.type !== "binary" || f.kind !== 1) return [];
    const d = decodeBrowserFrame(f.bytes);
    return d.ok ? [d.frame] : [];
  });
}

/** Waits for a browser frame matching `pred`. */
export async function nextBrowserFrame(
  c: ForgeClient,
  pred: (f: BrowserFrame) => boolean = () => true,
  ms = 30_000,
): Promise<BrowserFrame> {
  const f = await c.nextFrame((f) => {
    if (f.type !== "binary" || f.kind !== 1) return false;
    const d = decodeBrowserFrame(f.bytes);
    return d.ok && pred(d.frame);
  }, ms);
  const d = decodeBrowserFrame((f as { bytes: Uint8Array }).bytes);
  if (!d.ok) throw new Error(d.why);
  return d.frame;
}

/**
 * Two viewer connections attached to a seat's tab 1: attached first, they start the host, and its
 * boot tab is the one the seat's agent then adopts. spec: browser_view.
 */
export async function twoViewers(
  forge: { ready(): Promise<ForgeClient> },
  seat: Slot,
): Promise<[ForgeClient, ForgeClient]> {
  const a = await forge.ready();
  const b = await forge.ready();
  for (const [v, r] of [[a, 1], [b, 2]] as const) {
    v.send({ kind: "browser_view", seat, reply_to: r });
    const reply = await v.next((m) => m.kind === "reply" && m.reply_to === r, 30_000);
    assertEquals(reply.body, { ok: true, profile: "Acme/default", tab: 1 });
  }
  return [a, b];
}
