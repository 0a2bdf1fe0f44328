import { assert, assertEquals } from "./assert.ts";
import { answerOf, promptOf, rememberHistory } from "./numbered_history.ts";
import { webWorld } from "./web_harness.ts";

// Long histories stay fast: a 5,000-turn seat opens at its newest turn and is walked to its first
// prompt with `more`, the conversation virtualised so only the turns in view are in the DOM.
// spec: session > conversation (the newest twenty turns, the cursor); more ("walked to the first
// row": a null cursor ends the walk).

const SLOT = { org: "Acme", project: "long", label: "lead" };
const TURNS = 5_000;
/** "A few hundred conversation nodes": the ceiling the walk is held to, every step of it. */
const MAX_NODES = 600;

Deno.test({
  name:
    "web: a 5,000-turn seat opens at its newest turn and walks to its first, a few hundred nodes in the DOM",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "long", autoStart: false }], {
      viewport: { width: 1280, height: 900 },
      before: (world) => rememberHistory(world.dir, SLOT, TURNS),
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/long/lead`);
    const chat = page.getByTestId("chat");
    // Opens at its newest turn, in view.
    await chat.getByText(promptOf(TURNS)).waitFor({ timeout: 60_000 });
    assert(await chat.getByText(answerOf(TURNS)).isVisible(), "the newest answer is on screen");
    const nodes = () => chat.evaluate((el) => el.querySelectorAll("*").length);
    const held = () => page.evaluate("globalThis.forgeDebug.client.state.seat.turns.length");

    // The reader scrolls to the top again and again; each arrival of the page above is awaited.
    let most = await nodes();
    const start = page.getByTestId("history-start");
    for (let step = 0; step < TURNS; step++) {
      if (await start.isVisible()) break;
      const before = await held();
      await chat.evaluate((el) => el.scrollTop = 0);
      await page.waitForFunction(
        `globalThis.forgeDebug.client.state.seat.turns.length > ${before} ||
          globalThis.forgeDebug.client.state.seat.cursor === null`,
        undefined,
        { timeout: 30_000 },
      );
      most = Math.max(most, await nodes());
    }
    await chat.evaluate((el) => el.scrollTop = 0);
    await chat.getByText(promptOf(1), { exact: true }).waitFor();
    assertEquals(await held(), TURNS, "every turn walked, each once");
    console.log(`walked ${TURNS} turns; at most ${most} conversation nodes in the DOM`);
    assert(most <= MAX_NODES, `at most ${MAX_NODES} conversation nodes while walking (${most})`);
    const drawn = await page.getByTestId("turn").count();
    assert(drawn < 40, `only the turns in view are drawn (${drawn})`);
    await w.shot("seat-long-history-first");
  },
});
