// What a seat's launch is made of: the argv and the environment's layers, as the original
// builds them.
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { AccountConfig, ForgeConfig, ProjectConfig } from "../../config/types.ts";
import { cliMode, planLaunch, readEnvFile } from "./launch.ts";
import { runUnder } from "../../../tests/narrow_deno.ts";

const project: ProjectConfig = {
  org: "Acme",
  name: "proj",
  display_path: "~/proj",
  path: "/srv/proj",
  auto_start: true,
  model: "claude-sonnet-4-5",
  permission_mode: "accept_edits",
  effort: null,
  max_workers: 2,
  env: { LAYER: "project", PROJECT_ONLY: "p" },
  env_file: null,
  document_roots: [],
  browser_profile: null,
};
const account: AccountConfig = {
  display_name: "Main",
  provider: "anthropic",
  token: "sk-main",
  base_url: "http://127.0.0.1:9/",
  config_dir: "/cfg/main",
  models: ["claude-sonnet-4-5"],
  env: { LAYER: "account", ACCOUNT_ONLY: "a" },
};

function config(over: Partial<ForgeConfig> = {}): ForgeConfig {
  return {
    server: {
      enabled: true,
      bind: "127.0.0.1",
      port: 8790,
      allowed_origins: [],
      first_frame_cap_kb: 2048,
      tool_record_cap_kb: 64,
      subsystem_start_secs: 60,
      status_url: "",
    },
    client: { mark: null, theme: null, font: null },
    documents: { max_size_mib: 10 },
    claude: { path: "/opt/claude", check_latest: false, npm: "npm" },
    env: { LAYER: "global", GLOBAL_ONLY: "g" },
    accounts: [{ ...account, display_name: "Spare", config_dir: "/cfg/spare" }, account],
    orgs: [{
      name: "Acme",
      accounts: ["Main", "Spare"],
      fallback_accounts: [],
      browser_profile: null,
      projects: [project],
    }],
    areas: {},
    ...over,
  };
}

Deno.test("planLaunch: the org's first account, its dir, url and token, layers narrowest-wins", () => {
  const plan = planLaunch({
    config: config(),
    project,
    cwd: "/srv/proj",
    occupancy: { sessionId: "11111111-1111-4111-8111-111111111111" },
    inherited: { PATH: "/bin", HOME: "/home/me", CLAUDECODE: "1", CLAUDE_CONFIG_DIR: "/x" },
  });
  assertEquals(plan.bin, "/opt/claude");
  assertEquals(plan.account?.display_name, "Main");
  const env = plan.env;
  assertEquals(env.CLAUDE_CONFIG_DIR, "/cfg/main");
  assertEquals([env.ANTHROPIC_BASE_URL, env.ANTHROPIC_API_KEY], ["http://127.0.0.1:9/", "sk-main"]);
  assertEquals([env.LAYER, env.GLOBAL_ONLY, env.ACCOUNT_ONLY, env.PROJECT_ONLY], [
    "project",
    "g",
    "a",
    "p",
  ]);
  assertEquals([env.PWD, env.CLAUDECODE, env.ANTHROPIC_DEFAULT_OPUS_MODEL], [
    "/srv/proj",
    undefined,
    "claude-sonnet-4-5",
  ]);
  assertEquals(plan.args, [
    "--output-format",
    "stream-json",
    "--verbose",
    "--model",
    "claude-sonnet-4-5",
    "--permission-prompt-tool",
    "stdio",
    "--permission-mode",
    "acceptEdits",
    "--session-id",
    "11111111-1111-4111-8111-111111111111",
    "--include-partial-messages",
    "--input-format",
    "stream-json",
  ]);
});

Deno.test("planLaunch: launch settings win over the project; resume; env_overrides; no config dir", () => {
  const plan = planLaunch({
    config: config({ accounts: [{ ...account, config_dir: null, base_url: null, token: null }] }),
    project: { ...project, model: null, permission_mode: "default" },
    cwd: "/srv/other",
    occupancy: { resume: "22222222-2222-4222-8222-222222222222" },
    launch: {
      settings: { model: "m-x", permissions: { defaultMode: "plan" }, effortLevel: "high" },
      extra_args: [["--add-dir", "/srv/extra"]],
      env_overrides: { GLOBAL_ONLY: "", NEW: "n" },
    },
    inherited: { HOME: "/home/me", CLAUDE_CONFIG_DIR: "/home/me/.cc" },
  });
  assertEquals(plan.env.CLAUDE_CONFIG_DIR, "/home/me/.cc", "else $CLAUDE_CONFIG_DIR");
  assertEquals([plan.env.ANTHROPIC_BASE_URL, plan.env.ANTHROPIC_API_KEY], [undefined, undefined]);
  assertEquals([plan.env.GLOBAL_ONLY, plan.env.NEW], [undefined, "n"]);
  assertEquals([plan.model, plan.permissionMode, plan.effort], ["m-x", "plan", "high"]);
  assert(plan.args.includes("--resume") && !plan.args.includes("--session-id"));
  assertEquals(plan.args.slice(-4), ["--add-dir", "/srv/extra", "--input-format", "stream-json"]);
  const bare = planLaunch({
    config: config({ accounts: [{ ...account, config_dir: null }] }),
    project,
    cwd: "/srv/proj",
    occupancy: { sessionId: "33333333-3333-4333-8333-333333333333" },
    inherited: { HOME: "/home/me" },
  });
  assertEquals(bare.env.CLAUDE_CONFIG_DIR, "/home/me/.claude", "else ~/.claude");
  assertEquals(bare.warnings, []);
  // As in the original's forge.toml, a relative env_file is ignored, and the launch says so.
  const relative = planLaunch({
    config: config(),
    project: { ...project, env_file: "proj.env" },
    cwd: "/srv/proj",
    occupancy: { sessionId: "44444444-4444-4444-8444-444444444444" },
    inherited: { HOME: "/home/me" },
  });
  assertEquals(relative.warnings, ["env_file proj.env is not an absolute path and was ignored"]);
});

Deno.test("planLaunch refuses by name: no binary, a mode the CLI does not take, an unreadable env_file", () => {
  const saved = [Deno.env.get("FORGE_CLAUDE_BIN"), Deno.env.get("PATH")];
  Deno.env.set("FORGE_CLAUDE_BIN", "/nonexistent/claude");
  Deno.env.set("PATH", "/nonexistent");
  try {
    let why = "";
    try {
      planLaunch({
        config: config({ claude: { path: null, check_latest: false, npm: "npm" } }),
        project,
        cwd: "/",
        occupancy: { sessionId: "x" },
      });
    } catch (err) {
      why = (err as Error).message;
    }
    assertMatch(why, /^no claude binary/);
  } finally {
    Deno.env.set("FORGE_CLAUDE_BIN", saved[0]!);
    Deno.env.set("PATH", saved[1]!);
  }
  let why = "";
  try {
    cliMode("yolo");
  } catch (err) {
    why = (err as Error).message;
  }
  assertEquals(why, "permission mode `yolo` is not one the CLI takes");
  why = "";
  try {
    readEnvFile("/nonexistent/env");
  } catch (err) {
    why = (err as Error).message;
  }
  assertMatch(why, /^env_file \/nonexistent\/env cannot be read/);
  assertEquals(readEnvFile("relative/env"), {}, "a relative env_file is ignored");
});

Deno.test("readEnvFile: KEY=value lines, comments, export, quotes", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(
      path,
      "# comment\nA=1\nexport B = \"two words\"\n\nC='x=y'\nnot a line\n",
    );
    assertEquals(readEnvFile(path), { A: "1", B: "two words", C: "x=y" });
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("planLaunch: a worker's charter joins forge's own system-prompt section, one flag", () => {
  const plan = (forgeArgs: [string, string][]) =>
    planLaunch({
      config: config(),
      project,
      cwd: "/srv/proj",
      occupancy: { sessionId: "11111111-1111-4111-8111-111111111111" },
      launch: { charter: "# Your charter\n\nWrite the parser." },
      inherited: { PATH: "/bin", HOME: "/home/me" },
      forgeArgs,
    }).args;
  const joined = plan([["append-system-prompt", "# forge's tools"]]);
  assertEquals(joined.filter((a) => a === "--append-system-prompt").length, 1);
  assertEquals(
    joined[joined.indexOf("--append-system-prompt") + 1],
    "# forge's tools\n\n# Your charter\n\nWrite the parser.",
  );
  const alone = plan([]);
  assertEquals(
    alone[alone.indexOf("--append-system-prompt") + 1],
    "# Your charter\n\nWrite the parser.",
  );
});

// spec: home > accounts: a gateway launch binds the gateway's account and keeps its
// token and URL with forge.
Deno.test("planLaunch: through the gateway the CLI gets the seat's route and no token", () => {
  const spare = { ...account, display_name: "Spare", token: "sk-spare", config_dir: "/cfg/spare" };
  const plan = planLaunch({
    config: config(),
    project,
    cwd: "/srv/proj",
    occupancy: { sessionId: "11111111-2222-3333-4444-555555555555" },
    inherited: { HOME: "/home/u", ANTHROPIC_API_KEY: "sk-leak" },
    gateway: { baseUrl: "http://127.0.0.1:8787/seat/r", account: spare, kind: "token" },
  });
  assertEquals(plan.account?.display_name, "Spare");
  assertEquals(plan.env.CLAUDE_CONFIG_DIR, "/cfg/spare");
  assertEquals(plan.env.ANTHROPIC_BASE_URL, "http://127.0.0.1:8787/seat/r");
  assertEquals(plan.env.ANTHROPIC_AUTH_TOKEN, "forge-gateway");
  assert(!Object.values(plan.env).some((v) => v.startsWith("sk-")), "no token in the env");
  assert(!plan.args.some((a) => a.includes("sk-")), "no token in argv");
});

// Under the launcher's flags an env_file outside --allow-read is refused by Deno (NotCapable):
// the launch says forge may not read it, not that the operating system refused.
Deno.test("readEnvFile: a file outside forge's read permission is said so in forge's words", async () => {
  const path = await Deno.makeTempFile();
  try {
    const launch = new URL("./launch.ts", import.meta.url).href;
    const script = `import { readEnvFile } from ${JSON.stringify(launch)};\n` +
      `try { readEnvFile(${JSON.stringify(path)}); } catch (e) { console.log(e.message); }`;
    const ran = await runUnder(["--allow-env", "--allow-read=/nonexistent"], script);
    assertEquals(
      ran.stdout.trim(),
      `env_file ${path} cannot be read: forge's permissions do not reach it (docs/permissions.md says which paths they name)`,
      ran.stderr,
    );
  } finally {
    await Deno.remove(path);
  }
});
