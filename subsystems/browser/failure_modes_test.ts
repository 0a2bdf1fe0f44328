// How the agent's page tools fail, on a REAL Chromium (driver.ts, tab_health.ts): a page that
// runs a script without end fails its own call in words within the call's bound and holds up no
// other session's page on the same host, and a fresh attach stops that script (its session is
// told) rather than wait on it; a tab whose renderer crashed answers in words while the others
// go on; a dialog opened in the middle of a hover, a select, a drop or an evaluate ends that call
// with the dialog shown; a frame that comes and goes under a snapshot never hangs it.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserTools } from "../../tests/browser_tools.ts";
import { corpusServer } from "../../fixtures/browser_corpus/server.ts";

const LEAD = { org: "Acme", project: "proj", label: "lead" };
const W1 = { ...LEAD, label: "w1" };
const page = (html: string) => `data:text/html,${encodeURIComponent(html)}`;
const ok = (r: { text: string; isError?: boolean }) => {
  assertEquals(r.isError, undefined, r.text);
  return r.text;
};

Deno.test("a page running a script without end fails its own call alone; a fresh attach stops the script", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const host = tools.browser.profiles.forSeat(LEAD);
  host.driver.askBoundMs = 3_000;
  ok(await tools.run("navigate", { url: corpus.page("states") }));
  ok(await tools.run("snapshot", {}));
  // The worker's page is on the other site: a renderer process of its own.
  ok(await tools.run("navigate", { url: `${corpus.other}/states` }, "w1"));

  const spun = await tools.run("evaluate", { function: "() => { for (;;) {} }" }, "w1");
  assertEquals(spun.isError, true);
  assertMatch(spun.text, /within 3 s: the page did not let it finish \(a script on it may be/);
  // The lead's page on the same host, through the same Playwright worker, goes on.
  assertMatch(ok(await tools.run("snapshot", {})), /### Snapshot/);
  const events = () => tools.log.records.map((r) => r.event);
  assertEquals(events().filter((e) => e === "browser_driver_started").length, 1);
  assertEquals(events().includes("browser_driver_stopped"), false);

  // A new attach (the worker replaced) would wait on the silent page: forge stops its script.
  host.driver.close("the test replaced it");
  assertMatch(ok(await tools.run("snapshot", {})), /### Snapshot/);
  assertEquals(events().filter((e) => e === "browser_driver_started").length, 2);
  assertEquals(events().filter((e) => e === "browser_tab_script_stopped").length, 1);
  // The page's own session is told once, on its next call, which works.
  const next = ok(await tools.run("snapshot", {}, "w1"));
  assertMatch(next, /### Note\n- forge stopped a script on this page that ran without end/);
  assert(!ok(await tools.run("snapshot", {}, "w1")).includes("### Note"), "told once");
});

Deno.test("a tab whose renderer crashed answers in words; the host's other tabs go on", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const host = tools.browser.profiles.forSeat(LEAD);
  host.driver.askBoundMs = 3_000;
  ok(await tools.run("navigate", { url: corpus.page("states") }));
  ok(await tools.run("navigate", { url: `${corpus.other}/states` }, "w1"));
  ok(await tools.run("snapshot", {}, "w1"));
  const tab = await host.tabFor(W1);
  // Page.crash never answers: its renderer is gone.
  host.cdp!.send("Page.crash", {}, tab.session).catch(() => {});
  const crashed = await tools.run("snapshot", {}, "w1");
  assertEquals(crashed.isError, true);
  assertEquals(
    crashed.text,
    "could not read the page's accessibility snapshot: the tab's page crashed (its renderer is " +
      "gone); browser_navigate loads a page in it again, or browser_close closes it",
  );
  assert(!/\n\s+at /.test(crashed.text), `a stack in the answer: ${crashed.text}`);
  assertMatch(ok(await tools.run("snapshot", {})), /### Snapshot/);
  // The crashed tab's session loads a page again.
  assertMatch(ok(await tools.run("navigate", { url: corpus.page("dialog") }, "w1")), /### Page/);
});

Deno.test("a dialog opened in the middle of a hover, a select, a drop or an evaluate ends the call with it", async () => {
  await using tools = await browserTools();
  ok(
    await tools.run("navigate", {
      url: page(
        `<button onmouseover="alert('over')">Hover me</button>
         <select aria-label="Plan" onchange="confirm('change plan?')"><option>a<option>b</select>
         <div ondragover="event.preventDefault()" ondrop="event.preventDefault(); alert('dropped')"
           style="width:200px;height:80px">Drop here</div>`,
      ),
    }),
  );
  const modal = (kind: string, message: string) =>
    new RegExp(`### Modal state\\n- An? ${kind} dialog is open: "${message}"`);
  const answer = async () => ok(await tools.run("handle_dialog", { accept: true }));

  assertMatch(ok(await tools.run("hover", { target: "button" })), modal("alert", "over"));
  await answer();
  const selected = ok(await tools.run("select_option", { target: "select", values: ["b"] }));
  assertMatch(selected, /Selected \["b"\] in select/);
  assertMatch(selected, modal("confirm", "change plan\\?"));
  await answer();
  const dropped = ok(
    await tools.run("drop", { target: "text=Drop here", data: { "text/plain": "x" } }),
  );
  assertMatch(dropped, modal("alert", "dropped"));
  await answer();
  const evaluated = ok(await tools.run("evaluate", { function: "() => confirm('go on?')" }));
  assertMatch(evaluated, /The function opened a page dialog before it returned/);
  assertMatch(evaluated, modal("confirm", "go on\\?"));
  await answer();
  assertEquals(ok(await tools.run("evaluate", { function: "() => 1 + 1" })).trim(), "2");
});

Deno.test("a frame that comes and goes under the snapshot never hangs it: a snapshot or a sentence", async () => {
  await using tools = await browserTools();
  ok(
    await tools.run("navigate", {
      url: page(
        `<p>Frames come and go</p><script>
          setInterval(() => {
            const old = document.querySelector("iframe");
            if (old) old.remove();
            else document.body.append(Object.assign(document.createElement("iframe"),
              { srcdoc: "<button>Inside</button><input type=password value=pw-in-frame>" }));
          }, 7);
        </script>`,
      ),
    }),
  );
  for (let i = 0; i < 12; i++) {
    const r = await tools.run("snapshot", {});
    if (r.isError) {
      assertMatch(r.text, /browser_snapshot again|take a (new )?browser_snapshot/i);
    } else assertMatch(r.text, /### Snapshot/);
    // (The answer's URL is the data: URL the test wrote; the snapshot is what the page shows.)
    assert(!(r.text.split("### Snapshot")[1] ?? "").includes("pw-in-frame"), r.text);
  }
});
