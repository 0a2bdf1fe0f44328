import { assert, assertEquals } from "../../tests/assert.ts";
import { chromiumPath, killGroup, launchChromium } from "./launch.ts";
import { endLeftover, endLeftovers } from "./leftover.ts";

const CHROMIUM = chromiumPath(null);

function alive(pid: number): boolean {
  const out = new Deno.Command("ps", { args: ["-o", "pid=", "-p", String(pid)], stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).trim() === String(pid);
}

async function lockOf(dir: string): Promise<number> {
  for (;;) {
    try {
      const lock = await Deno.readLink(`${dir}/SingletonLock`);
      return Number(lock.slice(lock.lastIndexOf("-") + 1));
    } catch {
      await new Promise((r) => setTimeout(r, 50)); // Chromium has not taken the profile yet
    }
  }
}

/** A Chromium over `dir` whose parent is gone, as a killed forge leaves it. */
async function orphanedChromium(dir: string): Promise<number> {
  const line = `setsid '${CHROMIUM}' --headless --no-sandbox --disable-gpu ` +
    `--user-data-dir='${dir}' about:blank >/dev/null 2>&1 &`;
  await new Deno.Command("sh", { args: ["-c", line] }).output();
  return await lockOf(dir);
}

function notes() {
  const seen: Record<string, unknown>[] = [];
  return { seen, note: (event: string, f: Record<string, unknown>) => seen.push({ event, ...f }) };
}

Deno.test({
  name: "leftover: a Chromium a dead forge left over a profile is ended, and said",
  ignore: CHROMIUM === null,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "forge-leftover-" });
    const dir = `${root}/Acme_default/user-data`;
    await Deno.mkdir(dir, { recursive: true });
    const pid = await orphanedChromium(dir);
    try {
      assert(alive(pid), "the orphaned Chromium runs");
      const { seen, note } = notes();
      assertEquals(await endLeftovers(root, note), [pid]);
      assert(!alive(pid), "the leftover is gone");
      assertEquals(seen.map((s) => [s.event, s.pid, s.profile]), [
        ["browser_leftover_ended", pid, dir],
      ]);
    } finally {
      killGroup(pid);
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "leftover: this forge's own Chromium, and a lock naming another process, are left alone",
  ignore: CHROMIUM === null,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "forge-leftover-" });
    const own = await launchChromium(CHROMIUM!, `${root}/own/user-data`);
    const stranger = new Deno.Command("sleep", { args: ["60"] }).spawn();
    try {
      await lockOf(`${root}/own/user-data`);
      // A lock whose pid the kernel gave to something that is not a Chromium over the profile.
      await Deno.mkdir(`${root}/reused/user-data`, { recursive: true });
      await Deno.symlink(
        `${Deno.hostname()}-${stranger.pid}`,
        `${root}/reused/user-data/SingletonLock`,
      );
      // A lock another host wrote (a profile on a shared disk).
      await Deno.mkdir(`${root}/elsewhere/user-data`, { recursive: true });
      await Deno.symlink(
        `not-${Deno.hostname()}-${stranger.pid}`,
        `${root}/elsewhere/user-data/SingletonLock`,
      );
      const { seen, note } = notes();
      assertEquals(await endLeftovers(root, note), []);
      assertEquals(await endLeftover(`${root}/none/user-data`, note), null);
      assert(alive(own.child.pid) && alive(stranger.pid), "both still run");
      assertEquals(seen, []);
    } finally {
      killGroup(own.child.pid);
      stranger.kill("SIGKILL");
      await stranger.status;
      await own.child.status;
      await Deno.remove(root, { recursive: true });
    }
  },
});
