// The home fields forge itself authors are read through their schemas, not as JSON: a value off
// its shape is refused by the validating client with the field's path and what it expected.
// spec: What a subject carries > home (connectors, dictate), dictate_models > in_use > state.
import { assertEquals } from "../tests/assert.ts";
import type { HomeSnapshot } from "./home.ts";
import { WireChecker } from "./validate.ts";

const off = { state: "off" as const, why: "pushes are off" };
const home: HomeSnapshot = {
  projects: [],
  fleet: [],
  agents: [],
  unseen: [],
  accounts: null,
  connectors: {
    gotify: { connected: false, configured: false, error: "no [gotify] in forge.toml" },
    slack: { connected_workspaces: [["acme", true]], load_failed: false, load_error: null },
  },
  biometric: { devices: [] },
  vault: null,
  dictate: {
    enabled: true,
    snapshot: {
      models: [
        { role: "dictation", file: "ggml-base.en.bin", state: "ready" },
        { role: "vad", file: "silero.onnx", state: { failed: "the file is not an ONNX model" } },
      ],
      failure: null,
    },
    models_dir: "/m",
    device: { device: "hw:1" },
  },
  voice: { enabled: false, models_dir: null },
  cli_version: { installed: null, latest: null },
  forge_version: "0.1.0",
  forge_version_short: "0.1.0",
  boot_id: "b",
  service_status: null,
  fatal_error: null,
  notify: {
    enabled: false,
    channels: { ntfy: off, gotify: off, webpush: off },
    vapid_public_key: null,
    subscriptions: 0,
  },
};

/** The checker's words for the home as `edit` leaves it (`as never`: a value off the type). */
function check(edit: (h: HomeSnapshot) => void): string[] {
  const data = structuredClone(home);
  edit(data);
  return new WireChecker().check({ kind: "snapshot", subject: "home", data });
}

Deno.test("home: what forge builds for its own fields reads", () => {
  assertEquals(check(() => {}), []);
  const downloading = { downloading: { downloaded: 10, total: 100, resumed_from: null } };
  assertEquals(check((h) => h.dictate.snapshot.models[0].state = downloading), []);
  assertEquals(check((h) => h.dictate.device = "system"), []);
});

Deno.test("home: a model's state is one of the preflight states", () => {
  assertEquals(check((h) => h.dictate.snapshot.models[0].state = "warming" as never), [
    'snapshot of "home": dictate.snapshot.models.0.state: expected one of "pending", ' +
    '"verifying", "fetched", "loading", "ready" or an object, got a string',
  ]);
  assertEquals(check((h) => h.dictate.snapshot.models[1].state = { failed: null } as never), [
    'snapshot of "home": dictate.snapshot.models.1.state.failed: expected a string, got null',
  ]);
});

Deno.test("home: the dictate device is a DictateDeviceChoice", () => {
  assertEquals(check((h) => h.dictate.device = { id: "hw:1" } as never), [
    'snapshot of "home": dictate.device: expected "system" or {"device": …}, got an object',
  ]);
});

Deno.test("home: a slack workspace is its [label, connected] pair", () => {
  assertEquals(check((h) => h.connectors.slack.connected_workspaces = [{ acme: true }] as never), [
    'snapshot of "home": connectors.slack.connected_workspaces.0: expected a list, got an object',
  ]);
});

Deno.test("home: a dictate failure is forge's sentence", () => {
  assertEquals(check((h) => h.dictate.snapshot.failure = "the model did not load"), []);
  assertEquals(check((h) => h.dictate.snapshot.failure = { other: { message: "x" } } as never), [
    'snapshot of "home": dictate.snapshot.failure: expected a string, got an object',
  ]);
});
