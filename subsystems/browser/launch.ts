/**
 * Starting one headless Chromium for a profile: Debian's `chromium`, its own
 * user-data dir, DevTools on an ephemeral loopback port. Measured flags.
 */
import { firstOnPath, isFileSync } from "../../server/path_kind.ts";

/** A running Chromium: its process and the DevTools URL it printed. */
export interface Launched {
  child: Deno.ChildProcess;
  wsUrl: string;
  /** Milliseconds from spawn to the DevTools URL: the bench's host start time. */
  startMs: number;
}

/** The binary a host runs: `browser.chromium`, else `chromium` found on PATH; null when neither. */
export function chromiumPath(configured: string | null): string | null {
  if (configured) return isFileSync(configured) ? configured : null;
  return firstOnPath("chromium", (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":"));
}

/**
 * Spawns Chromium over `userDataDir` and waits for its DevTools URL. Rejects with a sentence
 * when it exits or stays silent for 30 s. `env` adds to the child's environment (PULSE_SINK).
 */
export async function launchChromium(
  bin: string,
  userDataDir: string,
  env: Record<string, string> = {},
): Promise<Launched> {
  const started = performance.now();
  await Deno.mkdir(userDataDir, { recursive: true });
  // A profile a killed host left locked would refuse the next start; the lock is ours alone.
  for (const lock of ["SingletonLock", "SingletonSocket", "SingletonCookie"]) {
    await Deno.remove(`${userDataDir}/${lock}`).catch(() => {/* no lock left: nothing to clear */});
  }
  // detached: Deno calls setsid() in the child, so Chromium leads its own process group and a
  // close or a death takes its renderers, zygotes and crash handler with it (killGroup) rather
  // than leaving them writing the profile. No `setsid` binary: one would run anything.
  const child = new Deno.Command(bin, {
    detached: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--no-default-browser-check",
      "--autoplay-policy=no-user-gesture-required",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${userDataDir}`,
      "--window-size=1280,720",
      "about:blank",
    ],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const timer = setTimeout(() => killGroup(child.pid), 30_000);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        throw new Error(
          `chromium (${bin}) exited before it opened DevTools: ${seen.trim().slice(-300)}`,
        );
      }
      seen += value;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        // Keep draining stderr so a chatty Chromium never blocks on a full pipe.
        (async () => {
          try {
            while (!(await reader.read()).done) { /* discard */ }
          } catch { /* closed */ }
        })();
        return { child, wsUrl: m[1], startMs: performance.now() - started };
      }
      if (seen.length > 64 * 1024) seen = seen.slice(-8 * 1024);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Kills a host's whole process group (its leader is the Chromium started detached). */
export function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch { /* already gone */ }
  try {
    Deno.kill(pid, "SIGKILL");
  } catch { /* already gone */ }
}
