import { assert, assertEquals, assertMatch } from "./assert.ts";
import { startWeb, webWorld } from "./web_harness.ts";

// A conversation drawn well: a model's markdown rendered and sanitised (no HTML, script or
// `javascript:` link from its text reaches the DOM as markup), code highlighted, and tool calls
// drawn as what they did - a Bash call as its command, a Read as its path and range, an Edit as
// a diff, a long output folded. spec: "Two representations of one conversation cross" (the
// drawing is the client's).

/** A listener the model's images name: any request reaching it is a leak. */
function imageTrap() {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response("gif", { headers: { "content-type": "image/gif" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    hits,
    stop: () => server.shutdown(),
  };
}

const hostile = (trap: string) =>
  [
    "Here is **bold** text and `inline code`.",
    "",
    '<img src=x onerror="globalThis.__pwned = 1">',
    "",
    "<script>globalThis.__pwned = 2</script>",
    "",
    "[a trap](javascript:globalThis.__pwned=3) and [a real link](https://example.org/)",
    "",
    `![the pixel](${trap}/pixel.gif?secret=1)`,
    "",
    "```ts",
    "const answer: number = 42;",
    "```",
  ].join("\n");

function script(dir: string, trap: string) {
  return {
    named: {
      draw: [
        {
          content: [
            { type: "text", text: hostile(trap) },
            {
              type: "tool_use",
              name: "Bash",
              input: { command: "seq 1 40", description: "count" },
            },
          ],
        },
        {
          content: [{
            type: "tool_use",
            name: "Read",
            input: { file_path: `${dir}/notes.txt`, offset: 2, limit: 3 },
          }],
        },
        {
          content: [{
            type: "tool_use",
            name: "Edit",
            input: {
              file_path: `${dir}/notes.txt`,
              old_string: "line two",
              new_string: "line TWO",
            },
          }],
        },
        { content: [{ type: "text", text: "drawn" }] },
      ],
    },
  };
}

Deno.test({
  name:
    "web: hostile markdown is drawn as text, code is highlighted, tool calls read as what they did",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const trap = imageTrap();
    // The script names the project's own file, so it is built from the world's dir.
    await using w = await webWorld([{ name: "draw", autoStart: true }], {
      script: (root) => script(`${root}/draw`, trap.url),
      before: (world) =>
        Deno.writeTextFile(
          `${world.projectDir("draw")}/notes.txt`,
          "line one\nline two\nline three\nline four\n",
        ),
    });
    const dir = w.world.projectDir("draw");
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/draw/lead`);
    await page.getByTestId("composer").fill("[[script:draw]] draw it all");
    await page.getByTestId("send").click();
    // Whatever the CLI asks permission for (the Edit; a Bash it does not judge read-only) is
    // allowed from the dock until the turn's last words arrive.
    const done = page.getByTestId("answer").getByText("drawn");
    const ask = page.getByTestId("ask-permission");
    for (;;) {
      const next = await Promise.race([
        done.waitFor({ timeout: 60_000 }).then(() => "done"),
        ask.waitFor({ timeout: 60_000 }).then(() => "ask"),
      ]);
      if (next === "done") break;
      await ask.getByTestId("option-allow_once").click();
      await ask.waitFor({ state: "detached" });
    }
    // Nothing the model wrote ran, and none of it is markup.
    assertEquals(await page.evaluate("globalThis.__pwned"), undefined);
    const answer = page.getByTestId("answer").first();
    const text = (await answer.textContent())!;
    assert(text.includes('<img src=x onerror="globalThis.__pwned = 1">'), text);
    assert(text.includes("<script>globalThis.__pwned = 2</script>"), text);
    const chat = page.getByTestId("chat");
    assertEquals(await chat.locator("img, script, iframe").count(), 0);
    assertEquals(await chat.locator('a[href^="javascript"]').count(), 0);
    assertEquals(await answer.locator('a[href="https://example.org/"]').count(), 1);
    assertEquals(await answer.locator("strong").textContent(), "bold");
    // An image the agent names is a link to it, never fetched.
    assertEquals(
      await answer.locator(`a[href="${trap.url}/pixel.gif?secret=1"]`).textContent(),
      "image: the pixel",
    );
    assertEquals(trap.hits, []);

    // The fence is highlighted as TypeScript.
    assertEquals(await answer.locator("pre .hljs-keyword").first().textContent(), "const");

    // Bash as its command, its 40 lines folded; Read as path and range; Edit as a diff.
    const bash = page.locator("[data-tool=Bash]");
    assertEquals(await bash.getByTestId("tool-bash").locator("pre").textContent(), "$ seq 1 40");
    const folded = bash.getByTestId("tool-folded");
    assertEquals(await folded.getAttribute("open"), null, "a long output starts folded");
    assertMatch((await folded.locator("summary").textContent())!, /40 lines · show all/);
    await folded.locator("summary").click();
    assertMatch((await bash.getByTestId("tool-out").textContent())!, /^1\n2\n[\s\S]*\n40$/);
    const read = page.getByTestId("tool-read");
    assertMatch((await read.textContent())!, /notes\.txt\s*lines 2–4/);
    const edit = page.getByTestId("tool-edit");
    assertEquals(await edit.locator(".hljs-deletion").textContent(), "-line two");
    assertEquals(await edit.locator(".hljs-addition").textContent(), "+line TWO");
    assertEquals(
      await Deno.readTextFile(`${dir}/notes.txt`),
      "line one\nline TWO\nline three\nline four\n",
    );
    await w.shot("seat-drawn");

    // A page that keeps its policy (the harness's page bypasses it for playwright's waits):
    // an image from any other address is refused even if one reached the DOM.
    const bare = await w.browser.newContext({ serviceWorkers: "block" });
    const kept = await bare.newPage();
    await kept.goto(`${w.webUrl}#/seat/Acme/draw/lead`);
    await kept.getByTestId("answer").getByText("drawn").waitFor();
    const blocked = await kept.evaluate(`new Promise((done) => {
      const img = document.createElement("img");
      img.onload = () => done("loaded");
      img.onerror = () => done("refused");
      img.src = "${trap.url}/injected.gif";
      document.body.append(img);
    })`);
    assertEquals(blocked, "refused");
    assertEquals(trap.hits, []);
    await trap.stop();

    // The conversation's code failing to arrive is said, not an endless "Loading…".
    const cut = await bare.newPage();
    await cut.route(/\/chat-[^/]*\.js$/, (route) => route.abort());
    await cut.goto(`${w.webUrl}#/seat/Acme/draw/lead`);
    await cut.getByTestId("lazy-failed").waitFor();
    await bare.close();
  },
});

Deno.test({
  name:
    "web: the shell is read fresh, hashed chunks are kept, the favicon is served, a stray name is 404",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // The files alone: no forge need answer for them.
    const web = await startWeb("ws://127.0.0.1:9/socket");
    try {
      const shell = await fetch(web.url);
      const html = await shell.text();
      assertEquals(shell.headers.get("cache-control"), "no-store");
      assertMatch(shell.headers.get("content-security-policy")!, /img-src 'self' data: blob:/);
      const chat = /<link rel="modulepreload" href="(\/chat-[^"]+\.js)">/.exec(html)?.[1];
      assert(chat, `the shell preloads the conversation's chunk: ${html}`);
      const chunk = await fetch(new URL(chat, web.url));
      await chunk.body?.cancel();
      assertEquals(chunk.status, 200);
      assertEquals(chunk.headers.get("cache-control"), "public, max-age=31536000, immutable");
      const icon = await fetch(new URL("/favicon.ico", web.url));
      await icon.body?.cancel();
      assertEquals(icon.status, 200);
      assertEquals(icon.headers.get("content-type"), "image/png");
      // A chunk-shaped name the bundle does not hold is not found, not a server error.
      const gone = await fetch(new URL("/chat-NOSUCHHASH.js", web.url));
      assertEquals([gone.status, await gone.text()], [404, "not found"]);
    } finally {
      await web.stop();
    }
  },
});
