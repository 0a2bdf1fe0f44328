import { assert, assertEquals } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { CORE_AREAS } from "../config/core_areas.ts";
import { loadConfigText } from "../config/load.ts";
import { memoryLogger } from "../log.ts";
import { catalogueAreas } from "../registry.ts";
import { Alarms } from "./alarms.ts";
import { AccountPool } from "./pool.ts";
import { Prober, REPROBE_MS } from "./prober.ts";

const CONFIG = `[[accounts]]\ndisplay_name = "Key"\nprovider = "anthropic"\ntoken = "sk-k"\n`;

// spec: home > accounts (loading state per account): `probing` ends. A probe that throws (here as
// Deno's header error does, quoting the value) leaves the account `failed` with forge's sentence
// and its retry, announced; the engine's words are the log's.
Deno.test("prober: a probe that throws fails the account in words, with its retry, announced", async () => {
  const { config } = loadConfigText(
    CONFIG,
    "/tmp/forge.toml",
    catalogueAreas(CORE_AREAS, SUBSYSTEMS),
  );
  const pool = new AccountPool();
  pool.sync(config);
  const account = pool.get("Key")!;
  const alarms = new Alarms();
  const log = memoryLogger();
  const announced = Promise.withResolvers<void>();
  const prober = new Prober({
    pool,
    alarms,
    log,
    claudeDir: "/nowhere",
    now: () => 1_000,
    announce: () => announced.resolve(),
    probe: () => Promise.reject(new TypeError('Invalid header value: "sk-FIRST\nSECONDHALF"')),
  });
  try {
    prober.start(account);
    await announced.promise;
    assertEquals(account.state, "failed");
    assertEquals(
      account.lastError,
      "forge failed while probing account Key; forge.log has the cause under gateway_probe_crashed",
    );
    assertEquals(account.retryAt, 1_000 + REPROBE_MS);
    assert(pool.settled());
    assertEquals(log.records.map((r) => [r.level, r.event]), [["error", "gateway_probe_crashed"]]);
  } finally {
    alarms.clear();
    await prober.stop();
  }
});
