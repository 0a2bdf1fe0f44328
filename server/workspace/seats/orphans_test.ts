// The pid book: what a run that died without its shutdown leaves behind is ended by the next
// boot; a pid the kernel reused is left alone. (Needs /proc, so this tier runs with -A.)
import { assert, assertEquals } from "../../../tests/assert.ts";
import { memoryLogger } from "../../log.ts";
import { StateKeeper } from "../../state/keeper.ts";
import { PidBook } from "./orphans.ts";
import { descendants, probe, processTree, readTable, startTime } from "./procfs.ts";

Deno.test("a recorded process that outlived its run is ended at the next boot, its children first", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command("sh", { args: ["-c", "sleep 60 & wait"] }).spawn();
  try {
    assertEquals(probe().source, "proc");
    const log = memoryLogger();
    const first = new PidBook(new StateKeeper(log), dir, log);
    first.add(child.pid, "Acme/proj/lead");
    await first.flushed();
    // The shell forks before the child execs sleep: wait for the exec, not for a time.
    let table = (await readTable())!;
    for (let i = 0; i < 200 && !execedSleep(table, child.pid); i++) {
      await new Promise((r) => setTimeout(r, 10));
      table = (await readTable())!;
    }
    const kids = descendants(table, child.pid);
    assertEquals(kids.length, 1, "the sleep runs under the shell");
    assertEquals(
      (processTree(table, child.pid).processes as { command: string }[])[1].command,
      "sleep 60",
    );
    // The next boot finds the shell (same pid, same start time) and ends it and its sleep.
    const reaped = await new PidBook(new StateKeeper(log), dir, log).reap();
    assertEquals(reaped, [child.pid]);
    // Children first: the sleep's end may let the shell's `wait` return (exit 0) before its
    // own SIGTERM lands, so either ending is the shell ended by the reap.
    const status = await child.status;
    assert(
      status.signal === "SIGTERM" || status.code === 143 || status.code === 0,
      JSON.stringify(status),
    );
    // The sleep was killed; as an orphaned zombie it lasts until init collects it.
    for (let i = 0; i < 100 && await startTime(kids[0]) !== null; i++) {
      await new Promise((r) => setTimeout(r, 30));
    }
    assertEquals(await startTime(kids[0]), null);
    assert(log.records.some((r) => r.event === "seat_orphan_reaped"));
    assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/pids.json`)), []);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

function execedSleep(table: Awaited<ReturnType<typeof readTable>>, pid: number): boolean {
  const rows = processTree(table!, pid).processes as { command: string }[];
  return rows.length === 2 && rows[1].command === "sleep 60";
}

Deno.test("a pid whose start time differs is another process: it is not touched", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command("sleep", { args: ["60"] }).spawn();
  try {
    await Deno.writeTextFile(
      `${dir}/pids.json`,
      JSON.stringify([{ pid: child.pid, start: "1", seat: "Acme/proj/lead" }]),
    );
    assertEquals(
      await new PidBook(new StateKeeper(memoryLogger()), dir, memoryLogger()).reap(),
      [],
    );
    assert((await startTime(child.pid)) !== null, "still running");
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a seat's CLI is on the book, its start time with it, before its first request", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command("sleep", { args: ["60"] }).spawn();
  const log = memoryLogger();
  try {
    const book = new PidBook(new StateKeeper(log), dir, log);
    // The seat's handshake is `first`: what is on disk when it runs is what a kill then leaves.
    const onDisk = await book.admit(
      child.pid,
      "Acme/proj/lead",
      async () => JSON.parse(await Deno.readTextFile(`${dir}/pids.json`)),
    );
    assertEquals(onDisk, [{
      pid: child.pid,
      start: await startTime(child.pid),
      seat: "Acme/proj/lead",
    }]);
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a book changed on disk under a run: a leftover it names is ended, never the run's own", async () => {
  const dir = await Deno.makeTempDir();
  const spawn = () => new Deno.Command("sleep", { args: ["60"] }).spawn();
  const [mine, leftover, next] = [spawn(), spawn(), spawn()];
  const log = memoryLogger();
  try {
    const book = new PidBook(new StateKeeper(log), dir, log);
    assertEquals(await book.reap(), []);
    await book.add(mine.pid, "Acme/proj/lead");
    // A person puts back a book that names this run's CLI and one a dead run left.
    const rec = async (p: Deno.ChildProcess, seat: string) => ({
      pid: p.pid,
      start: await startTime(p.pid),
      seat,
    });
    const edited = [await rec(mine, "Acme/proj/lead"), await rec(leftover, "Acme/proj/old")];
    await Deno.writeTextFile(`${dir}/pids.json`, JSON.stringify(edited));
    // The next record reads the book again first: the leftover ends, this run's CLI does not.
    await book.add(next.pid, "Acme/proj/w1");
    const ended = await leftover.status;
    assert(ended.signal === "SIGTERM" || ended.signal === "SIGKILL", JSON.stringify(ended));
    assert((await startTime(mine.pid)) !== null, "this run's CLI still runs");
    const onDisk = JSON.parse(await Deno.readTextFile(`${dir}/pids.json`)) as { pid: number }[];
    assertEquals(onDisk.map((r) => r.pid), [mine.pid, next.pid]);
  } finally {
    for (const p of [mine, leftover, next]) {
      try {
        p.kill("SIGKILL");
      } catch { /* ended */ }
      await p.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
});
