import { startHarness } from "./claude_support.ts";
import { assert } from "./assert.ts";
import { claudeByHand, writeMarketplace } from "./plugins_fixture.ts";

// spec: session > slash_commands ("what the CLI last advertised ... when a turn's init (or a
// plugin reload) moves them"). A plugin installed under the account's config dir reaches a seat
// through the CLI itself: the real CLI's next init lists the plugin's command. Nothing in forge
// carries it across; this pins the CLI behaviour the extensions subject relies on.
Deno.test("a plugin installed under the config dir shows in the real CLI's slash_commands at its next init", async () => {
  const text = (t: string) => ({ type: "text" as const, text: t });
  await using h = await startHarness({
    replies: [{ content: [text("one")] }, { content: [text("two")] }],
  });
  const src = `${h.root}/market`;
  await writeMarketplace(src, "mk", [{ name: "hello", version: "0.1.0", full: true }]);
  await claudeByHand(h.configDir, "plugin", "marketplace", "add", src);

  const initOf = async () => {
    const { proc, log } = h.spawn({ argv: {} });
    proc.sendUserMessage("hi");
    const init = await log.next("system", "init");
    await log.next("result");
    await proc.close();
    return (init.slash_commands as string[]) ?? [];
  };
  const before = await initOf();
  assert(!before.some((c) => c.includes("wave")), `no plugin command yet: ${before.join(", ")}`);
  await claudeByHand(h.configDir, "plugin", "install", "hello@mk");
  const after = await initOf();
  assert(
    after.some((c) => c.includes("hello") && c.includes("wave")),
    `the plugin's command: ${after.join(", ")}`,
  );
});
