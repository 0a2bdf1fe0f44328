/**
 * home's `cli_version`: the installed and latest claude versions (spec: What a subject carries >
 * home), and the unit `cli_version_changed` that tells a home holder to read again when either
 * moves (a fleet redraw, as in the original). Installed is `claude --version` at boot, then
 * whatever a seat's CLI reports in its init frame (a CLI upgraded on disk shows with the next seat
 * that starts). Latest is the newest release npm's own client names for the CLI's package, read on
 * a slow timer while `[claude] check_latest` is on.
 */
import type { CliFrame, SessionUpdate } from "../../protocol/mod.ts";
import { fieldsArea } from "../subsystem.ts";
import { findClaude, readCliVersion } from "../workspace/cli.ts";
import { every, type PollSchedule } from "./poll.ts";

/** The npm package the claude CLI ships as (the one tools/toolchain pins). */
export const CLI_PACKAGE = "@anthropic-ai/claude-code";

/** How often the newest release is asked for: releases come days apart. */
export const LATEST_POLL_MS = 6 * 3_600_000;

/** Runs the check; server/areas/poll.ts. */
export type LatestSchedule = PollSchedule;

export const everySixHours: LatestSchedule = every(LATEST_POLL_MS);

/** How long one `npm view` may run before it is ended and the check counts as failed. */
export const NPM_VIEW_MS = 60_000;

const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * `npm view <package> version --json`: the newest published version, or forge's sentence saying
 * why there is none (with npm's own words beside it, for the log only). npm is the registry's
 * ordinary client; it reads the user's own npm config (registry, proxy), so forge names no
 * registry of its own. A run past `timeoutMs` is ended.
 */
export async function readLatestCliVersion(
  npm: string,
  signal?: AbortSignal,
  timeoutMs = NPM_VIEW_MS,
): Promise<{ version: string } | { why: string; cause?: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const what = `npm view ${CLI_PACKAGE}`;
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(npm, {
      args: ["view", CLI_PACKAGE, "version", "--json"],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    }).output();
  } catch (err) {
    return { why: `the npm client \`${npm}\` could not be run`, cause: String(err) };
  }
  if (timeout.aborted) return { why: `${what} did not answer within ${timeoutMs / 1000} s` };
  const stdout = new TextDecoder().decode(out.stdout).trim();
  const cause = [stdout, new TextDecoder().decode(out.stderr).trim()].filter(Boolean).join(" | ")
    .slice(0, 500);
  if (out.code !== 0) return { why: `${what} failed (exit ${out.code})`, cause };
  let version: unknown;
  try {
    version = JSON.parse(stdout);
  } catch {
    // The parser's words stay out: the answer said is that it is not JSON, the output its cause.
    return { why: `${what} answered something that is not JSON`, cause };
  }
  // One version prints as a JSON string; a range matching several prints an array.
  if (Array.isArray(version)) version = version.at(-1);
  if (typeof version === "string" && VERSION.test(version)) return { version };
  return { why: `${what} answered no release version`, cause };
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
    readCliVersion(findClaude(host.config()))
      .then((v) => versions.set("installed", v))
      .catch((error) => host.log.warn("cli_version_failed", { error: String(error) }));
    const stop = new AbortController();
    let said: string | null = null;
    // Both keys are restart-class: the launcher allowed running the boot value's npm only when
    // check_latest was on at boot, so the boot values are the ones read.
    const { check_latest, npm } = host.config().claude;
    const timer = schedule(async () => {
      if (check_latest !== true || stop.signal.aborted) return;
      const latest = await readLatestCliVersion(npm, stop.signal);
      if (stop.signal.aborted) return;
      if ("version" in latest) return versions.set("latest", latest.version);
      if (latest.why !== said) {
        host.log.info("cli_latest_unavailable", { why: latest.why, cause: latest.cause });
      }
      said = latest.why;
    }, (error) => host.log.warn("cli_latest_failed", { error: String(error) }));
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
