import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { childrenOf, commandOf, cwdOf } from "./seats_harness.ts";
import { texts, type WebWorld, webWorld } from "./web_harness.ts";

// The web client in a real browser against a spawned forge with a real seat on the fake API.
// spec: subscribe > answering (this client has a dock); showing; update {seq, span} and
// seat_range; the ping section's reconnect rules ("re-ask the non-seat subjects ... re-attach
// only the seat on screen ... re-send Showing"); home > agents (lifecycle, reason) and the
// original's connection_failed, releasing and session commands.

const SLOW_TEXT =
  "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen";
const LEAD = "Acme/alpha/lead";

Deno.test({
  name: "web: start a seat, stream an answer, allow a permission, survive a drop and a restart",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([
      { name: "alpha", autoStart: false },
      { name: "beta", autoStart: false },
      { name: "gamma", autoStart: false },
    ]);
    const { page } = w;
    await page.goto(w.webUrl);

    // Home: the project and its sleeping lead, with the version footer.
    const row = page.getByTestId(`seat-${LEAD}`);
    await row.getByText("Sleeping").waitFor();
    assert((await page.getByTestId("versions").textContent())!.includes("socket 29"));
    await page.getByTestId("start-alpha").click();
    await row.locator("[data-mark=lifecycle]", { hasText: "Idle" }).waitFor({ timeout: 60_000 });
    await w.shot("home");

    // A seat: send a prompt and watch the answer stream in, then finish.
    await row.getByRole("link", { name: "lead" }).click();
    // The script's phrase for its slow count: the README shows this shot, so no marker in it.
    await page.getByTestId("composer").fill("Count to sixteen for me, slowly");
    await page.getByTestId("send").click();
    await page.locator(".answer.streaming").waitFor({ timeout: 30_000 });
    await page.getByTestId("turn-state").getByText("working").waitFor();
    // The rail draws home's row, which hears the turn begin from the CLI's own state frame.
    await page.getByTestId(`rail-${LEAD}`).locator("[data-mark=lifecycle]", { hasText: "Running" })
      .waitFor({ timeout: 10_000 });
    await w.shot("seat-mid-turn");
    await page.getByTestId("result").first().waitFor({ timeout: 30_000 });
    assertEquals(await texts(page, "[data-testid=answer]"), [SLOW_TEXT]);

    // A permission ask in the dock: allow it and see the tool run.
    await page.getByTestId("composer").fill("[[script:bash]] make the file");
    await page.getByTestId("send").click();
    const ask = page.getByTestId("ask-permission");
    await ask.waitFor({ timeout: 30_000 });
    assert((await ask.textContent())!.includes("touch allowed.txt"));
    // The rail marks the seat as waiting on you while the ask is parked.
    const railRow = page.getByTestId(`rail-${LEAD}`);
    await railRow.locator("[data-mark=needs-you]").waitFor();
    await w.shot("seat-permission-ask");
    await ask.getByTestId("option-allow_once").click();
    await page.getByText("created it").waitFor({ timeout: 30_000 });
    await ask.waitFor({ state: "detached" });
    await Deno.stat(`${w.world.projectDir("alpha")}/allowed.txt`);
    await page.getByTestId("result").nth(1).waitFor({ timeout: 30_000 });
    assertEquals((await texts(page, "[data-testid=result]")).length, 2);

    // A question ask: two questions of one call, answered front first from the dock.
    await page.getByTestId("composer").fill("[[script:ask]] pick for me");
    await page.getByTestId("send").click();
    const questions = page.getByTestId("ask-question");
    await questions.nth(1).waitFor({ timeout: 30_000 });
    await questions.first().getByLabel("Blue").check();
    await questions.first().getByTestId("answer").click();
    await page.getByTestId("dock").getByText("Which sizes?").waitFor();
    await questions.first().getByLabel("Small").check();
    await questions.first().getByLabel("Large").check();
    await questions.first().getByTestId("answer").click();
    await page.getByText("noted").waitFor({ timeout: 30_000 });
    await questions.first().waitFor({ state: "detached" });
    // Read back as the questions and the answers chosen, not as the call's JSON.
    assertEquals(await texts(page, "[data-testid=asked-answer]"), ["Blue", "Small, Large"]);
    await page.getByTestId("result").nth(2).waitFor({ timeout: 30_000 });

    // A turn that finishes while nobody shows the seat leaves it unseen; showing it spends the
    // mark (spec: home > unseen; showing).
    await page.getByTestId("composer").fill("[[script:slow]] while I look away");
    await page.getByTestId("send").click();
    await page.locator(".answer.streaming").waitFor({ timeout: 30_000 });
    await page.getByRole("link", { name: "Home" }).click();
    await row.locator("[data-mark=unseen]").waitFor({ timeout: 30_000 });
    await w.shot("home-unseen");
    await row.getByRole("link", { name: "lead" }).click();
    await page.getByTestId("result").nth(3).waitFor({ timeout: 30_000 });
    await railRow.locator("[data-mark=unseen]").waitFor({ state: "detached", timeout: 30_000 });

    // The socket drops mid-turn (as a network drops it): the page redials, re-attaches the seat,
    // and repairs the frames it missed with seat_range; nothing is lost or drawn twice.
    await page.getByTestId("composer").fill("[[script:slow]] again");
    await page.getByTestId("send").click();
    await page.locator(".answer.streaming").waitFor({ timeout: 30_000 });
    await page.evaluate(() =>
      (globalThis as unknown as { forgeDebug: { dropSocket(): void } }).forgeDebug.dropSocket()
    );
    await page.getByTestId("stale").waitFor();
    await page.getByTestId("stale").waitFor({ state: "detached", timeout: 30_000 });
    await page.locator("[data-testid=result]").nth(4).waitFor({ timeout: 30_000 });
    const stats = await page.evaluate(() =>
      (globalThis as unknown as { forgeDebug: { client: { stats: Record<string, number> } } })
        .forgeDebug.client.stats
    );
    assertEquals(stats.greetings, 2);
    // Every frame is checked against protocol/'s ServerMessage; none failed across the drop.
    assertEquals(
      await page.evaluate("globalThis.forgeDebug.client.stats.schemaErrors"),
      [],
    );
    assert(stats.rangeAsks >= 1, `the gap was repaired with seat_range (${JSON.stringify(stats)})`);
    const afterDrop = await conversation(page);
    assertEquals(afterDrop.prompts.length, 5);
    assertEquals(afterDrop.answers.filter((a) => a === SLOW_TEXT).length, 3);

    // forge restarted under the page: the page says it is stale, comes back, and draws the same
    // conversation - nothing lost, nothing doubled.
    await w.restartForge();
    await page.getByTestId("stale").waitFor({ state: "detached", timeout: 60_000 });
    // A sleeping seat's conversation is read from its transcript, which carries the turns' rows
    // (prompts, answers, tool results) and not the stream's result frames.
    await page.getByTestId("answer").nth(4).waitFor({ timeout: 30_000 });
    const afterRestart = await conversation(page);
    assertEquals({ ...afterRestart, results: 0 }, { ...afterDrop, results: 0 });

    await failAndRestart(w, page);
  },
});

/**
 * The seat's session from its page: its CLI killed mid-turn leaves it Failed with the reason
 * under its header and no turn left running (no Cancel); Restart brings it back; a new
 * conversation replaces its session and Stop ends it, each asked first. Each next press waits
 * for the seat's own word that its session is live (connected, session_replaced): the home's
 * row can still say Idle while a new session starts.
 */
async function failAndRestart(w: WebWorld, page: Page): Promise<void> {
  const lifecycle = page.getByTestId("seat-lifecycle");
  await page.getByTestId("seat-start").getByText("Start").click();
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
  await page.getByTestId("composer").fill("[[script:slow]] one more");
  await page.getByTestId("send").click();
  await page.locator(".answer.streaming").waitFor({ timeout: 30_000 });
  await page.getByTestId("cancel").waitFor();
  const killed = await epoch(page);
  const cli = childrenOf(w.forge.serverPid()).find((p) =>
    cwdOf(p) === w.world.projectDir("alpha") && commandOf(p).includes("claude")
  );
  assert(cli, "alpha's CLI is a child of forge");
  Deno.kill(cli, "SIGKILL");
  await lifecycle.getByText("Failed").waitFor({ timeout: 30_000 });
  const failure = page.getByTestId("seat-failure");
  assertMatch((await failure.textContent())!, /^Failed: claude exited \(.*SIGKILL\) mid-turn/);
  assertEquals(await page.getByTestId("cancel").count(), 0);
  // No turn is said to be working (and "idle" is not said beside Failed).
  assertEquals(await page.getByTestId("turn-state").count(), 0);
  await w.shot("seat-failed");

  const heard = await hearing(page, ["connected", "session_replaced"]);
  await page.getByTestId("seat-start").getByText("Restart").click();
  await heard("connected");
  const restarted = await newEpoch(page, [killed]);
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
  await failure.waitFor({ state: "detached" });

  // A new conversation: asked first, then the seat holds another session.
  await page.getByTestId("seat-new").click();
  await page.getByTestId("seat-new-asking").waitFor();
  await page.getByTestId("seat-new-yes").click();
  await heard("session_replaced");
  await newEpoch(page, [killed, restarted]);
  // The new session answers, and its conversation holds its own prompt alone.
  await page.getByTestId("composer").fill("[[script:hello]] a fresh start");
  await page.getByTestId("send").click();
  await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
    timeout: 60_000,
  });
  assertEquals(await texts(page, "[data-testid=prompt]"), ["[[script:hello]] a fresh start"]);
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });

  // Stop: asked first, then the seat sleeps and offers Start again.
  await page.getByTestId("seat-stop").click();
  await page.getByTestId("seat-stop-yes").click();
  await lifecycle.getByText("Sleeping").waitFor({ timeout: 60_000 });
  await page.getByTestId("seat-start").getByText("Start").waitFor();
}

async function conversation(page: import("playwright-core").Page) {
  return {
    prompts: await texts(page, "[data-testid=prompt]"),
    answers: await texts(page, "[data-testid=answer]"),
    tools: await texts(page, "[data-testid=tool-out]"),
    results: (await texts(page, "[data-testid=result]")).length,
  };
}

/** The session the page holds the seat under (its epoch). */
function epoch(page: Page): Promise<string | null> {
  return page.evaluate("globalThis.forgeDebug.client.state.seat.epoch") as Promise<string | null>;
}

/** Waits until the page holds the seat under a session none of `old` names; answers it. */
async function newEpoch(page: Page, old: (string | null)[]): Promise<string> {
  await page.waitForFunction(
    `(old) => { const e = globalThis.forgeDebug.client.state.seat?.epoch; return e && !old.includes(e); }`,
    old,
    { timeout: 60_000 },
  );
  return (await epoch(page))!;
}

/**
 * Counts the page's updates of `names` from now on; answers a wait for the next one of a name
 * (the page's own reader of every update, `forgeDebug.client.updateReaders`).
 */
async function hearing(page: Page, names: string[]): Promise<(name: string) => Promise<void>> {
  await page.evaluate(`(() => {
    const heard = globalThis.heardUpdates = {};
    globalThis.forgeDebug.client.updateReaders.add((u) => {
      if (${JSON.stringify(names)}.includes(u.name)) heard[u.name] = (heard[u.name] ?? 0) + 1;
    });
  })()`);
  const waited: Record<string, number> = {};
  return async (name) => {
    waited[name] = (waited[name] ?? 0) + 1;
    await page.waitForFunction(
      `(globalThis.heardUpdates[${JSON.stringify(name)}] ?? 0) >= ${waited[name]}`,
      undefined,
      { timeout: 60_000 },
    );
  };
}
