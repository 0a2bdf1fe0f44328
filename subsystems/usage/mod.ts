import type { Host } from "../../server/subsystem.ts";
import { defaultConfigDir, UsageScanner } from "./scanner.ts";

/**
 * The usage subject: a scan of the session-JSONL pool on the ask, answered once. Nothing updates
 * it; a client asks again by subscribing again. spec: What a subject carries > usage.
 */
export function create(host: Host) {
  const configDirs = () => {
    const dirs = host.config().accounts.flatMap((a) => (a.config_dir ? [a.config_dir] : []));
    const fallback = defaultConfigDir((n) => Deno.env.get(n));
    return [...new Set(fallback ? [...dirs, fallback] : dirs)];
  };
  const projects = () => host.workspace.projects().map((p) => ({ name: p.name, path: p.path }));
  let dirsKey = "";
  let scanner: UsageScanner | null = null;
  return {
    verbs: {},
    commands: {},
    subjects: {
      usage: async () => {
        // A reload may move the accounts' config dirs: rebuild the scanner only when they move,
        // so an unchanged pool keeps its incremental cache.
        const dirs = configDirs();
        if (scanner === null || dirs.join("\n") !== dirsKey) {
          scanner = new UsageScanner({ configDirs: dirs, projects: projects() });
          dirsKey = dirs.join("\n");
        } else scanner.setProjects(projects());
        // Cost per account: the gateway's ledger names the account behind each request-id.
        const accounts = await host.workspace.gateway?.requestAccounts();
        const result = await scanner.scan(new Date(), accounts);
        if (result.skipped_lines > 0 || result.unreadable.length > 0 || result.price_error) {
          host.log.warn("usage_scan_skipped", {
            skipped_lines: result.skipped_lines,
            skipped_files: result.skipped_files.slice(0, 20),
            unreadable: result.unreadable.slice(0, 20),
            price_error: result.price_error,
          });
        }
        host.log.debug("usage_scan", {
          files_read: result.files_read,
          files_reused: result.files_reused,
          files_appended: result.files_appended,
          bytes_read: result.bytes_read,
          report: result.report,
        });
        return result.snapshot;
      },
    },
  };
}
