// Spawned tier with a live seat (the real claude CLI on the fake Messages API): the composer's
// carried landing is spent when the person sends a prompt. spec: session > composer > notice
// ("the last landed take nobody has sent").
import { assertEquals } from "./assert.ts";
import { pinnedFlite } from "./dictate_audio.ts";
import { nextUpdate, streamTake } from "./dictate_support.ts";
import { command, seatWorld } from "./seats_harness.ts";

Deno.test("spawned: a landed take waits on the composer until a prompt is sent, then is spent", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  await Deno.writeTextFile(world.configPath, "\n[dictate]\nenabled = true\n", { append: true });
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const notice = async () => {
    const r = await forge.ready();
    r.send({ kind: "subscribe", what: { session: lead } });
    return ((await r.next((m) => m.kind === "snapshot")).data as { composer: { notice: unknown } })
      .composer.notice;
  };
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  await c.next((m) => m.kind === "snapshot");
  streamTake(c, await pinnedFlite("run the tests"), { slot: lead, surface: "composer" });
  assertEquals((await nextUpdate(c, "dictate_ended")).outcome, {
    landed: { text: "run the tests", truncated: false },
  });
  assertEquals(await notice(), { text: "run the tests", carried: true, surface: "composer" });
  command(c, "prompt", { key: lead, text: "[[script:hello]] run the tests", attachments: [] });
  await nextUpdate(c, "prompt_queued");
  assertEquals(await notice(), null);
});
