import { assert, assertEquals, assertMatch } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// A conversation drawn well: a model's markdown rendered and sanitised (no HTML, script or
// `javascript:` link from its text reaches the DOM as markup), code highlighted, and tool calls
// drawn as what they did - a Bash call as its command, a Read as its path and range, an Edit as
// a diff, a long output folded. spec: "Two representations of one conversation cross" (the
// drawing is the client's).

const HOSTILE = [
  "Here is **bold** text and `inline code`.",
  "",
  '<img src=x onerror="globalThis.__pwned = 1">',
  "",
  "<script>globalThis.__pwned = 2</script>",
  "",
  "[a trap](javascript:globalThis.__pwned=3) and [a real link](https://example.org/)",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
].join("\n");

function script(dir: string) {
  return {
    named: {
      draw: [
        {
          content: [
            { type: "text", text: HOSTILE },
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
    // The script names the project's own file, so it is built from the world's dir.
    await using w = await webWorld([{ name: "draw", autoStart: true }], {
      script: (root) => script(`${root}/draw`),
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
  },
});
