import { spawnWords } from "../../server/words.ts";
import { obj, redactUrls, str } from "./files.ts";

/** Where and how the plugin CLI runs: the account's config dir, the pinned binary. */
export interface CliTarget {
  /** The claude binary, or null when none resolves (the action then fails in words). */
  bin: string | null;
  /** The account's config dir: the CLI's CLAUDE_CONFIG_DIR and its working directory. */
  configDir: string;
  /** A bound on one call; the CLI's own git clone waits up to 120 s. */
  timeoutMs?: number;
  /** Kills the call (forge is stopping). */
  signal?: AbortSignal;
}

/** One `claude plugin ... --json` call's answer, in the CLI's own words. */
export interface CliOutcome {
  ok: boolean;
  /** The JSON line's `message` (else stderr's last words, else forge's sentence). */
  message: string;
  failureCode: string | null;
  /** `update`'s: `updated`, `up_to_date`. */
  updateOutcome: string | null;
  oldVersion: string | null;
  newVersion: string | null;
  /** The last lines of the CLI's stderr, for the log only (URLs' credentials removed). */
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 180_000;

/**
 * Runs `claude plugin <args> --json` under the config dir and reads its one JSON line (measured
 * against the CLI): `outcome` decides, `message` is the CLI's words. Never throws: a missing
 * binary, a timeout or output that is not the CLI's JSON each come back as a failed outcome naming
 * what happened. Telemetry and nonessential traffic are off, as a server's calls should be.
 */
export async function runPluginCli(target: CliTarget, args: string[]): Promise<CliOutcome> {
  const failed = (message: string): CliOutcome => ({
    ok: false,
    message,
    failureCode: null,
    updateOutcome: null,
    oldVersion: null,
    newVersion: null,
    stderr: "",
  });
  const shown = redactUrls(`claude plugin ${args.join(" ")}`);
  if (!target.bin) {
    return failed(
      `${shown}: no claude binary ([claude] path is unset, $FORGE_CLAUDE_BIN names none and PATH has no claude)`,
    );
  }
  if (target.signal?.aborted) return failed(`${shown}: not run because forge is stopping`);
  const env = Deno.env.toObject();
  delete env.CLAUDECODE; // a CLI that thinks it runs inside a session refuses some verbs
  Object.assign(env, {
    CLAUDE_CONFIG_DIR: target.configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
  });
  // A config dir that cannot be made fails the CLI below, which says so in its own exit.
  await Deno.mkdir(target.configDir, { recursive: true }).catch(() => {});
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(target.bin, {
      args: ["plugin", ...args, "--json"],
      cwd: target.configDir,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return failed(`${shown}: ${target.bin} could not be started: ${spawnWords(err)}`);
  }
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(kill, target.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  target.signal?.addEventListener("abort", kill);
  const out = await child.output();
  clearTimeout(timer);
  target.signal?.removeEventListener("abort", kill);
  if (target.signal?.aborted) return failed(`${shown}: stopped because forge is stopping`);
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (out.signal === "SIGKILL") {
    return failed(
      `${shown}: no answer within ${(target.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s`,
    );
  }
  const line = stdout.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("{")).at(-1);
  let bag: Record<string, unknown> | null = null;
  try {
    bag = line ? obj(JSON.parse(line)) : null;
  } catch {
    bag = null; // not JSON: the exit code and stderr are the outcome
  }
  const tail = redactUrls(stderr.split("\n").slice(-20).join("\n"));
  if (!bag) {
    const words = stderr.split("\n").filter((l) => l.trim()).at(-1)?.replace(/^✘\s*/, "");
    // The CLI's own refusal is its words for the press; a crash's stack is an engine's, and
    // goes to the log instead.
    return {
      ...failed(
        words && !ENGINE_LINE.test(words)
          ? redactUrls(words)
          : `${shown} exited ${out.code} without an answer; the log has its stderr`,
      ),
      stderr: tail,
    };
  }
  const ok = bag.outcome === "ok" && out.success;
  return {
    ok,
    message: redactUrls(str(bag.message) ?? (ok ? "done" : `${shown} failed (exit ${out.code})`)),
    failureCode: str(bag.failureCode),
    updateOutcome: str(bag.updateOutcome),
    oldVersion: str(bag.oldVersion),
    newVersion: str(bag.newVersion),
    stderr: tail,
  };
}

/** A line of a crash rather than of the CLI's words: a stack frame, a source location, a
 * JavaScript error's name, the runtime's banner. */
const ENGINE_LINE = /^\s*at\s|file:\/\/|^\s*\w*Error\b|^Bun v\d|^Node\.js v\d|\.m?js:\d+/;
