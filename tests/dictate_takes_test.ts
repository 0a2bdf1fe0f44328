import { assert, assertEquals } from "./assert.ts";
import { EXACT, pinnedFlite } from "./dictate_audio.ts";
import {
  command,
  DICTATE_CONFIG,
  LEAD,
  nextUpdate,
  roundTrip,
  streamTake,
  takeNews,
} from "./dictate_support.ts";
import { spawnForge } from "./spawned.ts";

// The spawned tier: `deno task start` (the launcher's narrow permissions) with [dictate] on,
// the real PocketSphinx and Silero, and speech rendered by flite and pinned by hash.

Deno.test("spawned dictation: takes land words, belong to their connection, and end honestly", async (t) => {
  await using forge = await spawnForge(DICTATE_CONFIG);
  const a = await forge.connect();
  const watcher = await forge.connect();
  watcher.send({ kind: "subscribe", what: { session: LEAD } });
  await watcher.next((m) => m.kind === "snapshot");

  await t.step(
    "spec dictate_stream/dictate_stop: each pinned sentence lands its exact words",
    async () => {
      for (const sentence of Object.keys(EXACT)) {
        streamTake(a, await pinnedFlite(sentence));
        const started = await nextUpdate(a, "dictate_started");
        assertEquals(started.floor_db, -60);
        await nextUpdate(a, "dictate_level");
        await nextUpdate(a, "dictate_transcribing");
        await nextUpdate(a, "dictate_progress");
        const ended = await nextUpdate(a, "dictate_ended");
        assertEquals(ended.outcome, { landed: { text: sentence, truncated: false } }, sentence);
        assertEquals(ended.generation, started.generation);
      }
    },
  );

  await t.step(
    "spec 'A take belongs to the connection that started it': a watcher of the seat hears none of it",
    async () => {
      await roundTrip(watcher);
      assertEquals(takeNews(watcher), []);
    },
  );

  await t.step(
    "spec composer > notice: the last landed take is carried with its surface",
    async () => {
      const c = await forge.connect();
      c.send({ kind: "subscribe", what: { session: LEAD } });
      const snap = (await c.next((m) => m.kind === "snapshot")).data as {
        composer: { notice: unknown; bind: string };
      };
      assertEquals(snap.composer.notice, {
        text: "build the project and report any warnings",
        carried: true,
        surface: "composer",
      });
      assertEquals(snap.composer.bind, "right_cmd"); // the seat's own composer fields stay
    },
  );

  await t.step(
    "spec: a second dictate_stream on a live seat is refused to that connection only",
    async () => {
      const b = await forge.connect();
      streamTake(a, await pinnedFlite("run the tests"), { stop: false });
      await nextUpdate(a, "dictate_started");
      command(b, { dictate_stream: { key: LEAD, options: axes("formal"), surface: "composer" } });
      const refused = await nextUpdate(b, "dictate_ended");
      const message = (refused.outcome as { refused: { message: string } }).refused.message;
      assert(message.includes("already has a live take"), message);
      command(a, { dictate_stop: { key: LEAD, submit: true } });
      const ended = await nextUpdate(a, "dictate_ended");
      assertEquals(ended.outcome, { landed: { text: "run the tests", truncated: false } });
      await roundTrip(a);
      assertEquals(
        takeNews(a).filter((n) => n === "dictate_ended").length,
        Object.keys(EXACT).length + 1,
        "the refusal went to b alone",
      );
    },
  );

  await t.step(
    "spec no_audio: a silent take ends no_audio with a null peak and its seconds",
    async () => {
      streamTake(a, new Int16Array(32_000));
      const ended = await nextUpdate(a, "dictate_ended");
      assertEquals(ended.outcome, { no_audio: { peak_db: null, seconds: 2 } });
    },
  );

  await t.step("spec dictate_stop submit:false: an abandoned take ends cancelled", async () => {
    streamTake(a, await pinnedFlite("close the terminal"), { stop: false });
    command(a, { dictate_stop: { key: LEAD, submit: false } });
    assertEquals((await nextUpdate(a, "dictate_ended")).outcome, "cancelled");
  });

  await t.step("spec: a connection that drops mid-take lands nothing anywhere", async () => {
    const d = await forge.connect();
    streamTake(d, await pinnedFlite("push the branch to origin"), { stop: false });
    await nextUpdate(d, "dictate_started");
    await d.close();
    // The seat is free again once the server has seen the close (another connection's close
    // is not ordered with a's messages, so a is refused until then), and lands nothing of d's.
    let outcome: Record<string, unknown> = {};
    for (let tries = 0; tries < 50; tries++) {
      streamTake(a, new Int16Array(16_000));
      outcome = (await nextUpdate(a, "dictate_ended")).outcome as Record<string, unknown>;
      if (!("refused" in outcome)) break;
    }
    assertEquals(outcome, { no_audio: { peak_db: null, seconds: 1 } });
    const c = await forge.connect();
    c.send({ kind: "subscribe", what: { session: LEAD } });
    const snap = (await c.next((m) => m.kind === "snapshot")).data as {
      composer: { notice: { text: string } };
    };
    assertEquals(snap.composer.notice.text, "run the tests");
    await roundTrip(watcher);
    assertEquals(takeNews(watcher), []);
  });

  await t.step("the documented axes: the same words land styled by the take's axes", async () => {
    const words = await pinnedFlite("delete the unused imports");
    streamTake(a, words, {
      axes: { styling: "semi_formal", structure: "bullets", context: "general" },
    });
    assertEquals((await nextUpdate(a, "dictate_ended")).outcome, {
      landed: { text: "- Delete the unused imports.", truncated: false },
    });
    streamTake(a, words, { axes: { styling: "formal", structure: "prose", context: "chat" } });
    assertEquals((await nextUpdate(a, "dictate_ended")).outcome, {
      landed: { text: "Delete the unused imports", truncated: false },
    });
  });

  await t.step(
    "spec set_dictate_override: the echo reaches the seat and the record carries it",
    async () => {
      command(a, { set_dictate_override: { key: LEAD, update: { styling: "casual" } } });
      const echo = await nextUpdate(watcher, "dictate_overrides");
      assertEquals(echo.overrides, { styling: "casual" });
      const c = await forge.connect();
      c.send({ kind: "subscribe", what: { session: LEAD } });
      const snap = (await c.next((m) => m.kind === "snapshot")).data as {
        state: { dictate_overrides: unknown; scan_cwd: string };
      };
      assertEquals(snap.state.dictate_overrides, { styling: "casual" });
      command(a, { reset_dictate_overrides: { key: LEAD } });
      assertEquals((await nextUpdate(watcher, "dictate_overrides")).overrides, {});
    },
  );
});

function axes(styling: "formal" | "casual") {
  return { styling, structure: "prose", context: "general" };
}
