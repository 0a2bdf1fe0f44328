import type { AccountConfig } from "../config/types.ts";

/**
 * Where the CLI keeps its login in a config dir on Linux: its plaintext credential store reads
 * and writes `<config dir>/.credentials.json` (the pinned CLI's store; tests/seats_logged_out_test.ts
 * shows the CLI reading a login from there). On macOS the CLI keeps it in the Keychain instead, so
 * no file appears there.
 */
export const CREDENTIALS_FILE = ".credentials.json";

/** A `config_dir` account's folder: its own `config_dir`, else forge's default Claude dir. */
export function accountConfigDir(account: AccountConfig, claudeDir: string): string {
  return account.config_dir ?? claudeDir;
}

/**
 * The credentials file's modification time (unix ms), or null when the folder holds none. Only
 * its metadata is read: forge never opens the login itself to judge it.
 */
export async function credentialsStamp(configDir: string): Promise<number | null> {
  try {
    return (await Deno.stat(`${configDir}/${CREDENTIALS_FILE}`)).mtime?.getTime() ?? 0;
  } catch {
    // No file (never logged in, or a login held in a keychain): nothing has landed here.
    return null;
  }
}

/**
 * Whether a login landed since a seat's CLI found none: the credentials file is there now and is
 * not the one that was there then (`before`, its stamp at that report; null when there was none).
 */
export function loginLanded(before: number | null, now: number | null): boolean {
  return now !== null && now !== before;
}

/** A `config_dir` account's failure once a seat's CLI under it found no login, and the fix. */
export function notLoggedInText(name: string, configDir: string): string {
  return `account ${name} is not logged in: a seat's claude found no login in ${configDir}. ` +
    `Run claude with CLAUDE_CONFIG_DIR=${configDir} and /login, then start the seat again`;
}
