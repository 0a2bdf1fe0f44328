// procfs.ts: the process table and signals without /proc. Deno 2.9 asks for --allow-all before
// it opens anything under /proc, so a server under the launcher's narrow flags falls back to
// `ps` and the `kill` binary when --allow-run names them. Checked in a child run with exactly
// those permissions.
import { assertEquals } from "../../../tests/assert.ts";

const PROCFS = new URL("./procfs.ts", import.meta.url).href;

Deno.test("without /proc: the table comes from ps, a start time from ps, a signal from kill", async () => {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { descendants, probe, readTable, signal, startTime } from "${PROCFS}";
const child = new Deno.Command("sleep", { args: ["30"] }).spawn();
const table = (await readTable())!;
const started = await startTime(child.pid);
await signal(child.pid, "SIGTERM");
const status = await child.status;
console.log(JSON.stringify({
  source: probe().source,
  child: descendants(table, Deno.pid).includes(child.pid),
  command: table.command(child.pid).endsWith("sleep 30"),
  started: started !== null,
  signal: status.signal,
}));`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-run=ps,kill,sleep", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    assertEquals(JSON.parse(text), {
      source: "ps",
      child: true,
      command: true,
      started: true,
      signal: "SIGTERM",
    });
  } finally {
    await Deno.remove(script);
  }
});

// A leftover Chromium is told by an argument far along its command line (browser/leftover.ts),
// so one process's line comes whole from either source, never cut at the table's 200 characters.
Deno.test("one process's parent and whole command line, from /proc and from ps alike", async () => {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { probe, processOf } from "${PROCFS}";
const args = ["30", ...Array(100).fill("0.0")];
const child = new Deno.Command("sleep", { args }).spawn();
const seen = await processOf(child.pid);
child.kill("SIGKILL");
await child.status;
console.log(JSON.stringify({
  source: probe().source,
  parent: seen?.parent === Deno.pid,
  // argv[0] is the path the binary was found at.
  whole: seen?.command.endsWith(["sleep", ...args].join(" ")),
  long: (seen?.command.length ?? 0) > 400,
  gone: await processOf(child.pid),
}));`,
    );
    const seen: unknown[] = [];
    for (const flags of ["--allow-all", "--allow-run=ps,sleep"]) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", flags, script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      seen.push(JSON.parse(new TextDecoder().decode(out.stdout).trim()));
    }
    assertEquals(seen, [
      { source: "proc", parent: true, whole: true, long: true, gone: null },
      { source: "ps", parent: true, whole: true, long: true, gone: null },
    ]);
  } finally {
    await Deno.remove(script);
  }
});
