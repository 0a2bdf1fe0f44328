/**
 * The usage bench's line floor, as a whole process: every file of the pool read the way the scan's
 * reader threads read it (256 KiB reads into WebAssembly memory, one thread a core) and searched
 * with the scan's own SIMD search for newlines and the `"usage"` key (byte_search.ts `line`),
 * nothing parsed, walked or packed. What is left between it and forge's first scan is the work
 * done on the lines found. Prints JSON: the in-process wall and CPU (its threads' included), the
 * bytes read and the places found.
 *
 *   tools/deno.sh run --allow-all tools/bench/arms/usage_lines.ts POOL_CONFIG_DIR
 */
import { processNs } from "../support/proc_cpu.ts";
import { BASE, byteSearch, SLACK } from "../../../subsystems/usage/byte_search.ts";
import { timedProcess } from "./process.ts";

const READ = 256 << 10;

/** Reads and searches `paths` on this thread: the bytes read and the places the search stopped. */
function searchFiles(paths: string[]): { bytes: number; hits: number } {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((BASE + READ + SLACK) / 65536) });
  const search = byteSearch(memory);
  const buf = new Uint8Array(memory.buffer);
  let bytes = 0, hits = 0;
  for (const path of paths) {
    using file = Deno.openSync(path);
    for (;;) {
      const n = file.readSync(buf.subarray(BASE, BASE + READ));
      if (n === null) break;
      bytes += n;
      const end = BASE + n;
      for (let at = search.line(BASE, end); at < end; at = search.line(at + 1, end)) hits++;
    }
  }
  return { bytes, hits };
}

function transcripts(dir: string, out: string[] = []): string[] {
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) transcripts(path, out);
    else if (entry.name.endsWith(".jsonl")) out.push(path);
  }
  return out;
}

/** The arm, run from the bench: a process of this module on a dropped page cache; its own figures
 * and whether the cache was cold. */
export async function lineFloor(pool: string) {
  const run = await timedProcess(
    [Deno.execPath(), "run", "--allow-all", new URL(import.meta.url).pathname, pool],
    { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp" },
  );
  const figures = JSON.parse(run.stdout) as {
    wallMs: number;
    cpuMs: number;
    bytes: number;
    hits: number;
  };
  return { ...figures, cold: run.cold };
}

const self = globalThis as unknown as {
  name?: string;
  onmessage: ((e: MessageEvent<string[]>) => void) | null;
  postMessage(m: unknown): void;
};
/** The reader threads load this module too, under this name (import.meta.main holds in a Worker
 * as well). */
const READER = "usage-lines-reader";

if (self.name === READER) {
  self.onmessage = (e) => self.postMessage(searchFiles(e.data));
} else if (import.meta.main) {
  const cpu0 = processNs(Deno.pid) / 1e6;
  const t0 = performance.now();
  const paths = transcripts(`${Deno.args[0]}/projects`).sort();
  const threads = Math.min(8, navigator.hardwareConcurrency ?? 1);
  const answers = await Promise.all(Array.from({ length: threads }, (_, t) => {
    const worker = new Worker(import.meta.url, { type: "module", name: READER });
    return new Promise<{ bytes: number; hits: number }>((resolve, reject) => {
      worker.onmessage = (e) => {
        worker.terminate();
        resolve(e.data);
      };
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage(paths.filter((_, i) => i % threads === t));
    });
  }));
  console.log(JSON.stringify({
    wallMs: performance.now() - t0,
    cpuMs: processNs(Deno.pid) / 1e6 - cpu0,
    bytes: answers.reduce((n, a) => n + a.bytes, 0),
    hits: answers.reduce((n, a) => n + a.hits, 0),
  }));
}
