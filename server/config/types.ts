import type { Wire } from "../../protocol/mod.ts";

/** The typed view of a loaded forge.toml, defaults applied. Built by `load.ts`, never mutated. */
export interface ForgeConfig {
  server: {
    enabled: boolean;
    bind: string;
    port: number;
    allowed_origins: string[];
    first_frame_cap_kb: number;
    tool_record_cap_kb: number;
    /** How long one subsystem's start may take before it is turned off (registry.ts). */
    subsystem_start_secs: number;
    /** A Statuspage `status.json` for home's service_status; "" = no poll. */
    status_url: string;
  };
  client: { mark: string | null; theme: string | null; font: string | null };
  documents: { max_size_mib: number };
  claude: {
    path: string | null;
    /** Whether the newest claude release is asked of npm (home cli_version.latest). */
    check_latest: boolean;
    /** The npm client that asks. */
    npm: string;
  };
  env: Record<string, string>;
  accounts: AccountConfig[];
  orgs: OrgConfig[];
  /** The `[[slack]]` workspaces; absent in a view built before the connectors. */
  slack?: SlackWorkspaceConfig[];
  /** Every area's values with defaults applied, for subsystems reading their own area. */
  areas: Record<string, Record<string, Wire>>;
}

/** One `[[slack]]` entry: the original forge's `slack[].*` keys. */
export interface SlackWorkspaceConfig {
  workspace: string;
  token: string;
  poll_seconds: number;
  thread_idle_days: number;
  /** forge's own key: where the Web API answers (Slack's own unless set; a test's fake). */
  api_url: string | null;
}

export interface AccountConfig {
  display_name: string;
  provider: string;
  token: string | null;
  base_url: string | null;
  config_dir: string | null;
  models: string[];
  env: Record<string, string>;
}

export interface OrgConfig {
  name: string;
  accounts: string[];
  fallback_accounts: string[];
  browser_profile: string | null;
  projects: ProjectConfig[];
}

export interface ProjectConfig {
  org: string;
  name: string;
  /** The path as written; `path` is the expanded absolute one. */
  display_path: string;
  path: string;
  auto_start: boolean;
  model: string | null;
  permission_mode: string;
  effort: string | null;
  max_workers: number;
  env: Record<string, string>;
  env_file: string | null;
  document_roots: string[];
  browser_profile: string | null;
}
