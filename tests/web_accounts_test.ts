import { startFakeApi } from "../fixtures/fake_api/mod.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// Accounts from the page: each account's chip with its state - probing, ready, cooling until
// when, at its cap, a refused credential's sign-in with the server's words - and a seat showing
// the account it runs under and every rotation notice. spec: home > accounts, projects (chip);
// What a client receives > update (the account pool paragraph); the original's notice and
// forge_account_identity updates.

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const limited = {
  error: { status: 429, type: "rate_limit_error", message: "slow down", retry: true },
};
const account = (name: string, token: string, url: string, dir: string) =>
  `[[accounts]]\ndisplay_name = "${name}"\nprovider = "anthropic"\ntoken = "${token}"\n` +
  `base_url = "${url}"\nconfig_dir = "${dir}/claude"\nmodels = ["claude-sonnet-4-5"]\n`;

Deno.test({
  name:
    "web: account chips say probing, cooling, at cap and sign-in needed; a seat shows its rotations",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // A rate-limits its second turn twice (and cools); B answers, its usage at its 5h cap; C's
    // upstream refuses every credential.
    const apiA = await startFakeApi({ replies: [text("from A"), limited, limited] });
    const apiB = await startFakeApi({
      headers: {
        "anthropic-ratelimit-unified-status": "allowed",
        "anthropic-ratelimit-unified-5h-utilization": "1.0",
        "anthropic-ratelimit-unified-5h-reset": "{now+3600}",
      },
      replies: [text("from B")],
    });
    const refusing = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () =>
        Response.json(
          { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
          { status: 401 },
        ),
    );
    const urlC = `http://127.0.0.1:${refusing.addr.port}`;
    // D's upstream holds its probe's answer until the test has seen the chip say probing.
    const answerD = Promise.withResolvers<void>();
    const holding = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
      await answerD.promise;
      return Response.json({ data: [] });
    });
    const urlD = `http://127.0.0.1:${holding.addr.port}`;
    try {
      await using w = await webWorld([{ name: "p" }], {
        before: async (world) => {
          const config = await Deno.readTextFile(world.configPath);
          const pool = account("A", "sk-web-a", apiA.url, world.dir) +
            account("B", "sk-web-b", apiB.url, world.dir) +
            account("C", "sk-web-c", urlC, world.dir) +
            `[[orgs]]\nname = "Acme"\naccounts = ["A", "C"]\nfallback_accounts = ["B"]\n`;
          await Deno.writeTextFile(
            world.configPath,
            config.replace(/\[\[accounts\]\][\s\S]*?accounts = \["Fake"\]\n/, pool)
              .replace("[gateway]\n", "[gateway]\nstreak_count = 2\nno_reset_cooldown_secs = 900\n")
              .replace('CLAUDE_CODE_MAX_RETRIES = "0"', 'CLAUDE_CODE_MAX_RETRIES = "3"'),
          );
        },
      });
      const { page } = w;
      await page.goto(`${w.webUrl}#/`);
      // C's probe was refused: its chip says a sign-in is needed, in the server's words.
      const chipC = page.getByTestId("account-C");
      await chipC.and(page.locator("[data-state=failed]")).waitFor({ timeout: 60_000 });
      assertMatch((await chipC.textContent())!, /sign-in needed.*refused the token \(HTTP 401\)/);

      await page.goto(`${w.webUrl}#/seat/Acme/p/lead`);
      const seatAccount = page.getByTestId("seat-account");
      await seatAccount.getByText(/account A/).waitFor({ timeout: 60_000 });
      for (const [prompt, answer] of [["first", "from A"], ["second", "from B"]]) {
        await page.getByTestId("composer").fill(prompt);
        await page.getByTestId("send").click();
        await page.getByTestId("answer").getByText(answer).waitFor({ timeout: 90_000 });
      }
      // The seat moved to B, and says why; the notice stays on the page.
      await seatAccount.getByText(/account B/).waitFor({ timeout: 30_000 });
      const notice = page.getByTestId("seat-notice").filter({ hasText: "from account A to B" });
      assertEquals(await notice.count(), 1);
      assertMatch((await notice.textContent())!, /forge moved this seat from account A to B: A is/);
      await w.shot("seat-account-rotated");

      // The home's chips: A cooling until a time, B at its cap, C still refused.
      await page.goto(`${w.webUrl}#/`);
      const chipA = page.getByTestId("account-A");
      await chipA.and(page.locator("[data-state=cooling]")).waitFor({ timeout: 30_000 });
      assertMatch((await chipA.textContent())!, /A · cooling until \d{1,2}:\d{2}:\d{2}/);
      await page.getByTestId("account-B").and(page.locator("[data-state=at_cap]")).waitFor({
        timeout: 30_000,
      });
      assertEquals(await page.getByTestId("account-C").getAttribute("data-state"), "failed");
      await w.shot("home-accounts");

      // An account added while the page is open (the config reloads): its chip says probing
      // while its first probe waits on its upstream, then ready once the upstream answers.
      await Deno.writeTextFile(
        w.world.configPath,
        `\n${account("D", "sk-web-d", urlD, w.world.dir)}`,
        { append: true },
      );
      const chipD = page.getByTestId("account-D");
      await chipD.and(page.locator("[data-state=probing]")).waitFor({ timeout: 30_000 });
      assertEquals(await chipD.textContent(), "D · probing");
      answerD.resolve();
      await chipD.and(page.locator("[data-state=ready]")).waitFor({ timeout: 30_000 });
    } finally {
      answerD.resolve();
      await apiA.close();
      await apiB.close();
      await refusing.shutdown();
      await holding.shutdown();
    }
  },
});
