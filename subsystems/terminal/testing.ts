/**
 * Helpers for this folder's tests: a temp home, a condition poll with a deadline, and the
 * visible text a VT stream draws in a fresh headless xterm.
 */
import xt from "@xterm/headless";

const { Terminal: Xterm } = xt;

/** Polls `check` every 10 ms until it returns a value other than undefined/false; rejects after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  ms = 10_000,
): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const got = check();
    if (got !== undefined && got !== false) return got;
    if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A temp dir used as the shell's cwd and HOME (so no personal rc file slows or shapes it). */
export async function withTempHome(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "forge-terminal-test-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The environment a test shell gets: a temp HOME and a prompt easy to wait for. */
export function testEnv(home: string): Record<string, string> {
  return { HOME: home, PS1: "$ ", HISTFILE: "/dev/null" };
}

/** The rows a VT stream draws on a fresh `cols`x`rows` xterm, right-trimmed, plus the cursor. */
export async function visibleText(
  stream: string | Uint8Array,
  cols: number,
  rows: number,
): Promise<{ lines: string[]; cursor: [number, number]; buffer: string }> {
  const term = new Xterm({ cols, rows, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => term.write(stream, resolve));
    const active = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < rows; y++) {
      lines.push(active.getLine(active.viewportY + y)?.translateToString(true) ?? "");
    }
    return { lines, cursor: [active.cursorX, active.cursorY], buffer: active.type };
  } finally {
    term.dispose();
  }
}

/** Decodes bytes as UTF-8. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
