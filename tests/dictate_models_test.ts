import { DictateModelsSnapshot } from "../protocol/mod.ts";
import { sha256Hex } from "../subsystems/dictate/digest.ts";
import { assert, assertEquals } from "./assert.ts";
import { command, DICTATE_CONFIG, nextUpdate } from "./dictate_support.ts";
import { spawnForge } from "./spawned.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

// Spawned tier: the dictate_models subject with the launcher's fence (models_dir, import_dir and
// the catalogue file named in forge.toml), the real PocketSphinx/Silero preflight and the real
// whisper.cpp runtime refusing a file that is not a model.

type Page = {
  enabled: boolean;
  models_dir: string;
  speaking: null;
  in_use: { role: string; file: string; state: unknown; size: number; sha256: string | null }[];
  check: { state: string; release?: string; skipped?: number; error?: string };
  rows: {
    variant: string;
    file: string;
    size_bytes: number;
    license: string;
    installed: boolean;
    digest: { algorithm: string; value: string };
  }[];
  install: { state: string; reason?: string; file?: string };
  activate: { state: string; reason?: string };
  installed: { file: string; sha256: string; size: number }[];
  updates: { file: string; candidates: { row: string; verdict: string }[] }[];
};

/** The next dictate_models_changed whose page passes `pred`. */
async function pageWhere(c: ForgeClient, pred: (p: Page) => boolean): Promise<Page> {
  for (;;) {
    const models = (await nextUpdate(c, "dictate_models_changed")).models;
    const shape = DictateModelsSnapshot.safeParse(models);
    assert(shape.success, JSON.stringify(shape.error?.issues.slice(0, 3)));
    const page = models as Page;
    if (pred(page)) return page;
  }
}

Deno.test("spawned dictate_models: rows with their facts, preflight, local-file installs checked by digest, activation refused by the engine", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "forge-dictate-models-" });
  const feed = `${root}/feed.json`;
  const config = `${DICTATE_CONFIG}models_dir = "${root}/models"\nimport_dir = "${root}/import"\n` +
    `catalogue = "${feed}"\n`;
  await Deno.mkdir(`${root}/import`);
  await using forge = await spawnForge(config);
  const c = await forge.connect();

  await t.step(
    "spec dictate_models: the rows that exist here, with file, size, digest and licence",
    async () => {
      c.send({ kind: "subscribe", what: "dictate_models" });
      const page = (await c.next((m) => m.kind === "snapshot")).data as Page;
      assertEquals(page.enabled, true);
      assertEquals(page.models_dir, `${root}/models`);
      assertEquals(page.speaking, null);
      assertEquals(page.check.state, "never");
      const ps = page.rows.find((r) => r.variant === "pocketsphinx-en-us")!;
      assertEquals([ps.file, ps.size_bytes, ps.license, ps.installed], [
        "en-us.lm.bin",
        27_114_385,
        "BSD-2-Clause",
        true,
      ]);
      const whisper = page.rows.find((r) => r.variant === "whisper-tiny.en")!;
      assertEquals([whisper.installed, whisper.digest.algorithm], [false, "sha1"]);
      assertEquals(page.in_use.map((m) => [m.role, m.file]), [
        ["dictation", "en-us.lm.bin"],
        ["vad", "silero_vad_v5.onnx"],
      ]);
      // Each package row's pin is the file on this machine: the digests agree.
      const onDisk = await sha256Hex(
        await Deno.readFile("/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"),
      );
      assertEquals(ps.digest.value, onDisk);
    },
  );

  await t.step(
    "spec: the preflight's end is dictate_availability; home dictate then reads ready",
    async () => {
      c.send({ kind: "subscribe", what: "home" });
      const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
        dictate: { snapshot: { models: { state: unknown }[] } };
      };
      let states = home.dictate.snapshot.models.map((m) => m.state);
      if (!states.every((s) => s === "ready")) {
        await c.next((m) => m.kind === "update" && m.update === "dictate_availability", 60_000);
        c.send({ kind: "subscribe", what: "home" });
        const again = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
          dictate: { snapshot: { models: { state: unknown }[] } };
        };
        states = again.dictate.snapshot.models.map((m) => m.state);
      }
      assertEquals(states, ["ready", "ready"]);
    },
  );

  await t.step(
    "spec dictate_install: an absent file and a wrong digest are refused in words",
    async () => {
      command(c, { dictate_install: { variant: "whisper-tiny.en" } });
      let page = await pageWhere(c, (p) => p.install.state === "failed");
      assert(page.install.reason!.includes("is not in"), page.install.reason);
      // The right size, the wrong bytes: refused on the SHA-1 whisper.cpp publishes.
      const fake = `${root}/import/ggml-tiny.en.bin`;
      await Deno.writeFile(fake, new Uint8Array(0));
      await Deno.truncate(fake, 77_704_715);
      command(c, { dictate_install: { variant: "whisper-tiny.en" } });
      page = await pageWhere(
        c,
        (p) =>
          p.install.state === "failed" && p.install.reason !== undefined &&
          p.install.reason.includes("pins"),
      );
      assert(page.install.reason!.includes("c78c86eb1a8faa21b369bcd33207cc90d64ae9df"));
      assertEquals(page.installed, []);
      assertEquals(
        [...Deno.readDirSync(`${root}/models`)].filter((e) => e.name.endsWith(".bin")),
        [],
      );
    },
  );

  const bytes = crypto.getRandomValues(new Uint8Array(4096));
  const digest = await sha256Hex(bytes);

  await t.step(
    "spec dictate_catalogue_check: a feed's rows replace the built-in ones; a bad row is skipped",
    async () => {
      await Deno.writeTextFile(
        feed,
        JSON.stringify({
          release: "test-1",
          rows: [
            {
              variant: "whisper-test",
              display_name: "a ggml file made by the test",
              family: "whisper",
              kind: "dictation",
              engine: "whisper",
              source: "local_file",
              package: null,
              path: null,
              file: "ggml-test.bin",
              size_bytes: bytes.length,
              digest: { algorithm: "sha256", value: digest },
              license: "MIT",
              params: null,
              quant: null,
              languages: ["en"],
              streaming: false,
              url: null,
            },
            { variant: "half a row" },
          ],
        }),
      );
      command(c, "dictate_catalogue_check");
      const page = await pageWhere(c, (p) => p.check.state === "fresh");
      assertEquals([page.check.release, page.check.skipped], ["test-1", 1]);
      assertEquals(page.rows.map((r) => r.variant), ["whisper-test"]);
    },
  );

  await t.step(
    "spec dictate_install/activate/uninstall: the digest passes, the engine refuses the file, the role keeps its model",
    async () => {
      await Deno.writeFile(`${root}/import/ggml-test.bin`, bytes);
      command(c, { dictate_install: { variant: "whisper-test" } });
      let page = await pageWhere(c, (p) => p.install.state === "idle" && p.installed.length === 1);
      assertEquals(page.installed[0].sha256, digest);
      command(c, { dictate_activate: { role: "dictation", file: "ggml-test.bin" } });
      await pageWhere(c, (p) => p.activate.state === "activating");
      page = await pageWhere(c, (p) => p.activate.state === "failed");
      assert(page.activate.reason!.includes("not a ggml whisper model"), page.activate.reason);
      assertEquals(page.in_use[0].file, "en-us.lm.bin");
      command(c, { dictate_activate: { role: "dictation", file: "nothing.bin" } });
      const err = await c.next((m) => m.kind === "error");
      assertEquals(
        err.why,
        "dictate_activate: nothing.bin is not installed: dictate_install it first",
      );
      command(c, { dictate_uninstall: { file: "ggml-test.bin" } });
      page = await pageWhere(c, (p) => p.installed.length === 0);
      assertEquals(page.installed, []);
    },
  );

  await t.step("spec check: an unreachable feed keeps the rows", async () => {
    await Deno.remove(feed);
    command(c, "dictate_catalogue_check");
    const page = await pageWhere(c, (p) => p.check.state === "unreachable");
    assert(page.check.error!.includes("could not be read"), page.check.error);
    assertEquals(page.rows.map((r) => r.variant), ["whisper-test"]);
  });
  await forge.stop();
  await Deno.remove(root, { recursive: true });
});
