import { type WebWorld, webWorld } from "./web_harness.ts";

// The seat's page says while the CLI compacts the conversation, and stops saying it when the
// compaction is done. The fake API holds the compaction call until the test lets it go, so the
// state lasts until it has been seen - live, and again from the snapshot after a reload.
// spec: session > composer (compacting); the CLI's status frames it derives from.

const SCRIPT = new URL("../fixtures/seats/script.json", import.meta.url);

Deno.test({
  name: "web: a compacting seat says so until its compaction is done, across a reload",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const script = JSON.parse(await Deno.readTextFile(SCRIPT));
    await using w = await webWorld([{ name: "alpha" }], {
      script: () => ({ ...script, hold_compaction: true }),
    });
    // A held call keeps the CLI (and so forge's stop) waiting: a failing test lets it go too.
    const release = async () => {
      const res = await fetch(`${w.world.apiUrl}/fake/release_compaction`, { method: "POST" });
      await res.body?.cancel();
    };
    try {
      await seeCompacting(w, release);
    } finally {
      await release();
    }
  },
});

async function seeCompacting(w: WebWorld, release: () => Promise<void>): Promise<void> {
  const { page } = w;
  await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
  const lifecycle = page.getByTestId("seat-lifecycle");
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
  const box = page.getByTestId("composer");
  await box.fill("something to compact");
  await page.getByTestId("send").click();
  await page.getByText("Echo: something to compact").waitFor({ timeout: 60_000 });
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });

  await box.fill("/compact");
  await page.getByTestId("send").click();
  const compacting = page.getByTestId("compacting");
  await compacting.waitFor({ timeout: 60_000 });
  await w.shot("seat-compacting");
  // A page opened mid-compaction reads it from the seat's record.
  await page.reload();
  await compacting.waitFor({ timeout: 60_000 });

  await release();
  await compacting.waitFor({ state: "detached", timeout: 60_000 });
  await lifecycle.getByText("Idle").waitFor({ timeout: 60_000 });
}
