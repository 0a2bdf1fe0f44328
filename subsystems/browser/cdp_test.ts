// forge's own DevTools connection (cdp.ts) against a real Chromium: every command is answered,
// including the ones asked while a fresh browser's first page commits and loads (where the
// previous client dropped answers that came back before its write was reported done), a refusal
// is an error in Chromium's words, and a Chromium that dies ends the connection once, failing
// what waited and what is asked after.
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { type Cdp, type CdpBody, connectCdp } from "./cdp.ts";
import { chromiumPath, killGroup, launchChromium } from "./launch.ts";

const PAGE = `<!doctype html><html><head><title>form page</title></head><body>hi</body></html>`;

/** A fresh Chromium and forge's connection to it; disposing ends both and the profile dir. */
async function browser() {
  const dir = await Deno.makeTempDir({ prefix: "forge-cdp-" });
  const launched = await launchChromium(chromiumPath(null)!, `${dir}/user-data`);
  const cdp = await connectCdp(launched.wsUrl);
  return {
    cdp,
    pid: launched.child.pid,
    async [Symbol.asyncDispose]() {
      await cdp.close();
      killGroup(launched.child.pid);
      await launched.child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** One command's answer or refusal: either settles it. */
type Answer = { ok: true; body: CdpBody } | { ok: false; why: string };

/** Asks and keeps the answer, a refusal included (Chromium refuses some mid-commit). */
function answerOf(asked: Promise<CdpBody>): Promise<Answer> {
  return asked.then((body) => ({ ok: true, body }), (e) => ({ ok: false, why: String(e) }));
}

/** Every command's answer, failing with the ones still unanswered after 30 s. */
async function allAnswered(asked: { what: string; answer: Promise<Answer> }[]) {
  const settled = new Set<string>();
  const all = Promise.all(asked.map((a) => a.answer.finally(() => settled.add(a.what))));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const open = asked.map((a) => a.what).filter((w) => !settled.has(w));
      reject(new Error(`never answered: ${open.join(", ")}`));
    }, 30_000);
  });
  return await Promise.race([all, bound]).finally(() => clearTimeout(timer));
}

/** Opens a window's page and attaches a flattened session to it, with Page and Runtime on. */
async function attachPage(cdp: Cdp): Promise<string> {
  const { targetId } = await cdp.send("Target.createTarget", {
    url: "about:blank",
    newWindow: true,
  });
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
  const s = String(sessionId);
  await Promise.all([cdp.send("Page.enable", {}, s), cdp.send("Runtime.enable", {}, s)]);
  return s;
}

Deno.test("every command asked around a fresh browser's first page load is answered", async () => {
  await using site = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  // A few fresh browsers: the first navigation of each is when the old client lost answers.
  for (let round = 0; round < 3; round++) {
    await using b = await browser();
    const asked: { what: string; answer: Promise<Answer> }[] = [];
    let session = "";
    const ask = (when: string) => {
      for (
        const [method, params] of [
          ["Runtime.evaluate", { expression: "document.title", returnByValue: true }],
          ["Runtime.getHeapUsage", {}],
          ["Page.getFrameTree", {}],
          ["Page.getNavigationHistory", {}],
        ] as const
      ) {
        const answer = answerOf(b.cdp.send(method, params, session));
        asked.push({ what: `${method} at ${when}`, answer });
      }
    };
    let loaded = () => {};
    const load = new Promise<void>((r) => (loaded = r));
    b.cdp.onEvent((method, _params, from) => {
      if (from !== session) return;
      if (method === "Page.frameNavigated") ask("commit");
      if (method === "Page.domContentEventFired") ask("DOMContentLoaded");
      if (method === "Page.loadEventFired") {
        ask("load");
        loaded();
      }
    });
    session = await attachPage(b.cdp);
    ask("attach");
    await b.cdp.send("Page.navigate", { url: `http://127.0.0.1:${site.addr.port}/` }, session);
    await load;
    const answers = await allAnswered(asked);
    const title = answers[asked.findIndex((a) => a.what === "Runtime.evaluate at load")];
    assert(title.ok, `the load's title read was refused: ${!title.ok && title.why}`);
    const read = (title.body.result as { value?: unknown }).value;
    assertEquals(read, "form page", "the load's title read sees the page");
  }
});

Deno.test("a refusal is Chromium's words; a Chromium that dies fails what waits and what follows", async () => {
  await using b = await browser();
  const targets = await b.cdp.send("Target.getTargets");
  assert((targets.targetInfos as { type: string }[]).some((t) => t.type === "page"));
  await assertRejects(
    () => b.cdp.send("Runtime.evaluate", { expression: "1" }, "no-such-session"),
    /Session with given id not found/,
  );

  const session = await attachPage(b.cdp);
  let closes = 0;
  b.cdp.onClose(() => closes++);
  // Asked and never answered by the page: it is waiting when Chromium dies.
  const waiting = b.cdp.send("Runtime.evaluate", {
    expression: "new Promise(() => {})",
    awaitPromise: true,
  }, session);
  const closed = new Promise<void>((r) => b.cdp.onClose(r));
  killGroup(b.pid);
  await closed;
  await assertRejects(() => waiting, /the browser's DevTools connection closed/);
  const after = await b.cdp.send("Target.getTargets").then(() => "answered", (e) => String(e));
  assertMatch(after, /the browser's DevTools connection closed \(Target\.getTargets\)/);
  assertEquals(closes, 1, "the close is heard once");
});
