import { assertEquals } from "../../tests/assert.ts";
import type { Host } from "../../server/subsystem.ts";
import { pluginsConfigDir } from "./root.ts";

type Config = ReturnType<Host["config"]>;
const account = (config_dir: string | null) => ({
  display_name: "A",
  provider: "anthropic",
  token: null,
  base_url: null,
  config_dir,
  models: [],
  env: {},
});
const config = (dirs: (string | null)[]) => ({ accounts: dirs.map(account) }) as unknown as Config;
const env = (vars: Record<string, string>) => (name: string) => vars[name];

// spec: extensions > snapshot: "null when no plugins root resolves (CLAUDE_CONFIG_DIR or HOME)".
Deno.test("root: an account's config_dir, else $CLAUDE_CONFIG_DIR, else $HOME/.claude, else none", () => {
  assertEquals(pluginsConfigDir(config([null, "/cfg/b"]), env({ HOME: "/h" })), "/cfg/b");
  assertEquals(
    pluginsConfigDir(config([null]), env({ CLAUDE_CONFIG_DIR: "/c", HOME: "/h" })),
    "/c",
  );
  assertEquals(pluginsConfigDir(config([]), env({ HOME: "/h" })), "/h/.claude");
  assertEquals(pluginsConfigDir(config([]), env({})), null);
});
