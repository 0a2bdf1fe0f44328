import { assert, assertEquals } from "../tests/assert.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { CORE_AREAS } from "./config/core_areas.ts";
import { loadConfigText } from "./config/load.ts";
import { logSecrets } from "./config/secrets.ts";
import { createLogger } from "./log.ts";
import { catalogueAreas } from "./registry.ts";

const TOKEN = "sk-ant-api03-planted-in-the-config";
const CONFIG = `[[accounts]]\ndisplay_name = "Main"\nprovider = "anthropic"\ntoken = "${TOKEN}"\n` +
  `base_url = "http://u:pw-planted-in-url@127.0.0.1:9"\n` +
  `[notify.ntfy]\ntopic = "fg-topic-planted"\n[env]\nGH_TOKEN = "short"\n`;

// An engine's error can quote a header's value whole (Deno's `Invalid header value: "..."`): the
// log takes every secret of the config in force out of the record, the file's and stderr's line.
Deno.test("createLogger: no record holds a secret of the config in force", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { config } = loadConfigText(
      CONFIG,
      `${dir}/forge.toml`,
      catalogueAreas(CORE_AREAS, SUBSYSTEMS),
    );
    const log = createLogger({
      file: `${dir}/forge.log`,
      stderr: false,
      secrets: logSecrets(() => config),
    });
    log.error("gateway_probe_crashed", {
      account: "Main",
      error: new TypeError(`Invalid header value: "${TOKEN}"`, { cause: `topic fg-topic-planted` }),
      nested: { words: [`Bearer ${TOKEN}`] },
      why: "http://u:pw-planted-in-url@127.0.0.1:9 could not be reached",
      env: "GH_TOKEN=short",
    });
    const line = await Deno.readTextFile(`${dir}/forge.log`);
    assert(!line.includes(TOKEN) && !line.includes("fg-topic-planted"), line);
    const record = JSON.parse(line);
    assertEquals(record.error.message, 'Invalid header value: "•••"');
    assertEquals(record.error.cause, "topic •••");
    assertEquals(record.nested, { words: ["Bearer •••"] });
    assertEquals(record.why, "http://u:•••@127.0.0.1:9 could not be reached");
    // A value shorter than 8 characters is left: blanking it would garble ordinary words.
    assertEquals(record.env, "GH_TOKEN=short");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
