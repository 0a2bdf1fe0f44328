/**
 * home's `cli_version`: the installed and latest claude versions (spec: What a subject carries >
 * home), and the unit `cli_version_changed` that tells a home holder to read again when either
 * moves (catalogue 2.2: a fleet redraw). Installed is `claude --version` at boot, then whatever a
 * seat's CLI reports in its init frame (a CLI upgraded on disk shows with the next seat that
 * starts). Latest is the newest release npm's own client names for the CLI's package, read on a
 * slow timer while `[claude] check_latest` is on.
 */
import type { CliFrame, SessionUpdate } from "../../protocol/mod.ts";
import { fieldsArea } from "../subsystem.ts";
import { findClaude, readCliVersion } from "../workspace/cli.ts";

/** The npm package the claude CLI ships as (the one tools/toolchain pins). */
export const CLI_PACKAGE = "@anthropic-ai/claude-code";

/** How often the newest release is asked for: releases come days apart. */
export const LATEST_POLL_MS = 6 * 3_600_000;

/** Runs `tick` now and then on a timer until stopped; tests tick it themselves. */
export type LatestSchedule = (tick: () => Promise<void>) => { stop(): void };

export const everySixHours: LatestSchedule = (tick) => {
  let running = tick();
  const timer = setInterval(() => (running = running.then(tick)), LATEST_POLL_MS);
  return { stop: () => clearInterval(timer) };
};

const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * `npm view <package> version`: the newest published version, or the sentence saying why there is
 * none. npm is the registry's ordinary client; it reads the user's own npm config (registry,
 * proxy), so forge names no registry of its own.
 */
export async function readLatestCliVersion(
  npm: string,
  signal?: AbortSignal,
): Promise<{ version: string } | { why: string }> {
  try {
    const out = await new Deno.Command(npm, {
      args: ["view", CLI_PACKAGE, "version"],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      signal,
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (out.code === 0 && VERSION.test(text)) return { version: text };
    const err = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    return { why: `npm view ${CLI_PACKAGE} version answered ${out.code}: ${err || text}` };
  } catch (err) {
    return { why: `npm could not be run: ${(err as Error).message}` };
  }
}

/** The two versions and who hears them move. */
export class CliVersions {
  installed: string | null = null;
  latest: string | null = null;

  constructor(private readonly changed: () => void) {}

  /** Sets either version; announces only a real move. */
  set(which: "installed" | "latest", version: string | null): void {
    if (version === null || this[which] === version) return;
    this[which] = version;
    this.changed();
  }

  /** A seat's init frame names the CLI that is running: the version installed now. */
  onUpdate(update: SessionUpdate): void {
    if (update.name !== "chat_appended") return;
    const msg = update.fields?.msg as CliFrame | undefined;
    if (msg?.type === "system" && msg.subtype === "init") {
      const v = msg.claude_code_version;
      if (typeof v === "string" && VERSION.test(v)) this.set("installed", v);
    }
  }

  wire(): { installed: string | null; latest: string | null } {
    return { installed: this.installed, latest: this.latest };
  }
}

/** The core area that keeps home's cli_version. */
export function cliVersionArea(schedule: LatestSchedule = everySixHours) {
  return fieldsArea("cli_version", "the installed and latest claude versions, on home", (host) => {
    const versions = new CliVersions(() =>
      host.emit({ name: "cli_version_changed", fields: null })
    );
    readCliVersion(findClaude(host.config())).then((v) => versions.set("installed", v));
    const stop = new AbortController();
    let said: string | null = null;
    const timer = schedule(async () => {
      if (host.config().claude.check_latest !== true || stop.signal.aborted) return;
      const latest = await readLatestCliVersion(host.config().claude.npm, stop.signal);
      if ("version" in latest) return versions.set("latest", latest.version);
      if (latest.why !== said) host.log.info("cli_latest_unavailable", { why: latest.why });
      said = latest.why;
    });
    return {
      homeFields: () => ({ cli_version: versions.wire() }),
      onUpdate: (u: SessionUpdate) => versions.onUpdate(u),
      stop: () => {
        timer.stop();
        stop.abort();
        return Promise.resolve();
      },
    };
  });
}
