import { assertEquals } from "./assert.ts";
import { command } from "./seat_wire.ts";
import { webWorld } from "./web_harness.ts";

// A turn a schedule started is drawn with the schedule's name beside its CRON label: live (the
// cron_prompt_appended update's `name`, forge's beside v29's description, which is null for a
// schedule made without one) and after a reload (the snapshot conversation's cron_names).
// spec: page > cron_names; session > conversation (cron_names).

Deno.test({
  name: "web: a fired prompt names the schedule it came from, live and after a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });

    // A one-shot with no description, due a few seconds from now: its name is its instant.
    const at = new Date(Date.now() + 4_000).toISOString();
    const c = await w.forge.ready();
    command(c, "cron_create", {
      project: "alpha",
      prompt: "look at the board",
      schedule: null,
      run_once_at: at,
      description: null,
    });
    const fired = page.locator(".prompt.source-cron");
    const name = fired.getByTestId("cron-name");
    await name.waitFor({ timeout: 60_000 });
    assertEquals(await name.textContent(), `once at ${at}`);
    await w.shot("seat-cron-name");

    await page.reload();
    await name.waitFor({ timeout: 60_000 });
    assertEquals(await name.textContent(), `once at ${at}`);
  },
});
