// docs/notify.md "Never blocks, never loses": whatever breaks inside the subsystem's own timers
// and sends is logged there and goes no further; a throw in a timer or a promise nobody awaits
// would otherwise end the whole server.
import type { SessionUpdate } from "../../protocol/mod.ts";
import { CORE_AREAS } from "../../server/config/core_areas.ts";
import { loadConfigText } from "../../server/config/load.ts";
import { memoryLogger } from "../../server/log.ts";
import { catalogueAreas } from "../../server/registry.ts";
import type { Host } from "../../server/subsystem.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { until } from "../../tests/harness.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { SUBSYSTEMS } from "../mod.ts";
import { start } from "./mod.ts";
import { GATHER_MS } from "./notifier.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const ask = (id: string): SessionUpdate => ({
  name: "permission_request",
  fields: {
    key,
    tool_id: id,
    request: { tool_call: { title: "Bash: ls", meta: { tool_name: "Bash" } } },
  },
});

/** The subsystem on a host whose config and emit a test can break; ntfy on a closed port. */
async function world() {
  const dir = await Deno.makeTempDir();
  const { config } = loadConfigText(
    `[notify]\nenabled = true\ncoalesce_secs = 0\n[notify.ntfy]\n` +
      `url = "http://127.0.0.1:1"\ntopic = "t"\n`,
    `${dir}/forge.toml`,
    catalogueAreas(CORE_AREAS, SUBSYSTEMS),
  );
  const broken = { config: false, emit: false };
  const log = memoryLogger();
  const host = {
    log,
    stateDir: dir,
    config: () => {
      if (broken.config) throw new Error("config broke");
      return config;
    },
    emit: () => {
      if (broken.emit) throw new Error("emit broke");
    },
  } as unknown as Host;
  const clock = new ManualClock();
  const notify = await start(host, clock);
  const crashes = () =>
    log.records.filter((r) => r.event === "notify_crashed").map((r) =>
      String((r as { error?: unknown }).error)
    );
  return {
    broken,
    clock,
    notify,
    crashes,
    async [Symbol.asyncDispose]() {
      await notify.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a throw in a push's timer is logged and goes no further", async () => {
  await using w = await world();
  w.notify.onUpdate(ask("t1"));
  w.broken.config = true;
  await w.clock.advanceSettling(GATHER_MS); // the push's timer reads the config, which throws
  assertEquals(w.crashes(), ["Error: config broke"]);
});

Deno.test("a throw after a failed send is logged, not left to end the process", async () => {
  await using w = await world();
  w.broken.emit = true; // the channel going failing is announced, and that throws
  w.notify.onUpdate(ask("t1"));
  await w.clock.advanceSettling(GATHER_MS);
  await until(() => w.crashes().length > 0, 10_000, "the crash record");
  assert(w.crashes()[0].includes("emit broke"), w.crashes()[0]);
});
