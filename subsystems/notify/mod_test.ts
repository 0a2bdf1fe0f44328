// docs/notify.md "Never blocks, never loses": whatever breaks inside the subsystem's own timers
// and sends is logged there and goes no further; a throw in a timer or a promise nobody awaits
// would otherwise end the whole server. And home hears a channel's state move on a reload.
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
// A permission ask with the fields a push reads (its call's title and tool); the rest of a real
// request does not reach a push.
const ask = (id: string) =>
  ({
    name: "permission_request",
    fields: {
      key,
      tool_id: id,
      request: { tool_call: { title: "Bash: ls", meta: { tool_name: "Bash" } } },
    },
  }) as unknown as SessionUpdate;

const ON =
  `[notify]\nenabled = true\ncoalesce_secs = 0\n[notify.ntfy]\nurl = "http://127.0.0.1:1"\n`;

/**
 * The subsystem on a host whose config and emit a test can break, and whose config a test can
 * reload; ntfy on a closed port.
 */
async function world() {
  const dir = await Deno.makeTempDir();
  const load = (text: string) =>
    loadConfigText(text, `${dir}/forge.toml`, catalogueAreas(CORE_AREAS, SUBSYSTEMS)).config;
  let config = load(`${ON}topic = "t"\n`);
  const broken = { config: false, emit: false };
  const log = memoryLogger();
  const emitted: SessionUpdate[] = [];
  const reloads = new Set<() => void>();
  const host = {
    log,
    stateDir: dir,
    config: () => {
      if (broken.config) throw new Error("config broke");
      return config;
    },
    emit: (update: SessionUpdate) => {
      if (broken.emit) throw new Error("emit broke");
      emitted.push(update);
    },
    onReload: (fn: () => void) => {
      reloads.add(fn);
      return () => reloads.delete(fn);
    },
  } as unknown as Host;
  const reload = (text: string) => {
    config = load(text);
    for (const fn of reloads) fn();
  };
  const clock = new ManualClock();
  const notify = await start(host, clock);
  const crashes = () =>
    log.records.filter((r) => r.event === "notify_crashed").map((r) =>
      String((r as { error?: unknown }).error)
    );
  return {
    broken,
    emitted,
    reload,
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

Deno.test("a reload that turns a channel off or on is pushed to home", async () => {
  await using w = await world();
  w.reload(`${ON}topic = "t"\ntoken = "tk_1"\n`); // nothing home shows moved
  w.reload(ON); // no topic: ntfy is off
  w.reload(`${ON}topic = "t2"\n`);
  // A server's URL is a restart key: the channel says so rather than that it is missing.
  w.reload(`${ON}topic = "t2"\n[notify.gotify]\nurl = "http://g.lan"\napp_token = "A1"\n`);
  type Row = { channels: Record<string, { state: string; why: string | null }> };
  const states = w.emitted.map((u) => {
    const { ntfy, gotify } = (u.fields as Row).channels;
    return [u.name, ntfy.state, ntfy.why, gotify.why];
  });
  assertEquals(states, [
    [
      "notify_state_changed",
      "off",
      "no [notify.ntfy] topic in forge.toml",
      "no [notify.gotify] url in forge.toml",
    ],
    ["notify_state_changed", "ok", null, "no [notify.gotify] url in forge.toml"],
    ["notify_state_changed", "ok", null, "[notify.gotify] url takes effect when forge restarts"],
  ]);
});
