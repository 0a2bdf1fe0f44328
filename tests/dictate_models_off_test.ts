// Socket tier: dictate_models with [dictate] off. spec: What a subject carries > dictate_models
// (`enabled` is carried because "a switched-off section still carries the speaking row when
// [tts] is on"; in_use: "the speaking row follows [tts] speaking_model, the installed pick or the
// compiled pin, and its catalogue is null"). The speaking engine is the real flite.
import { assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";
import { DictateModelsSnapshot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { updateOf } from "./seats_harness.ts";

type Page = {
  enabled: boolean;
  speaking: { speaking_model: string; from: string } | null;
  in_use: { role: string; file: string; state: unknown; catalogue: unknown; from: unknown }[];
  rows: unknown[];
};

/** The page once its speaking row is ready: the snapshot, or a later dictate_models_changed. */
async function readyPage(c: ForgeClient): Promise<Page> {
  c.send({ kind: "subscribe", what: "dictate_models" });
  let page = (await c.next((m) => m.kind === "snapshot")).data as Page;
  while (page.in_use[0]?.state !== "ready") {
    page = updateOf(
      await c.next((m) => !!updateOf(m, "dictate_models_changed"), 30_000),
      "dictate_models_changed",
    )!.models as Page;
  }
  return page;
}

Deno.test("dictate_models with [dictate] off and [tts] on serves the speaking row", async () => {
  await using t = await testServer("[dictate]\nenabled = false\n[tts]\nenabled = true\n");
  const page = await readyPage(await t.ready());
  assertEquals(DictateModelsSnapshot.safeParse(page).success, true, "the wire's own shape");
  assertEquals(page.enabled, false);
  assertEquals([page.speaking?.speaking_model, page.speaking?.from], ["flite", "compiled_pin"]);
  assertEquals(
    page.in_use,
    [{
      role: "speaking",
      file: "flite",
      size: null,
      sha256: null,
      state: "ready",
      facts: { runtime: "flite" },
      catalogue: null,
      from: { from: "compiled_pin" },
      at: null,
    }] as unknown as Page["in_use"],
  );
  assertEquals(page.rows, [], "no dictation catalogue while dictation is off");
});

Deno.test("dictate_models with both off is refused in words", async () => {
  await using t = await testServer("[dictate]\nenabled = false\n[tts]\nenabled = false\n");
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "dictate_models" });
  const e = await c.next((m) => m.kind === "error");
  assertEquals(e.what, "subscribe");
  assertMatch(String(e.why), /\[dictate\] and \[tts\] are both off/);
});
