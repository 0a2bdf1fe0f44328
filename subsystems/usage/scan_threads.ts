/**
 * A first scan's reader threads (scan_worker.ts), one per core: each is handed the next file in
 * path order when it answers one, two in flight so it never waits on the server's thread. Files
 * land in about the order the report folds them (report.ts `ReportFold`), so the fold runs while
 * the threads still read. A thread that fails answers its files in flight as unreadable and is
 * handed no more; the rest read on.
 */
import type { PackedRead } from "./packed.ts";
import type { ReadAnswer, ReadRequest } from "./scan_worker.ts";

const IN_FLIGHT = 2;

export async function readThreaded(
  paths: string[],
  threads: number,
  landed: (path: string, read: PackedRead | Error) => void,
): Promise<void> {
  const queue = paths.values();
  let failure = "";
  const thread = () =>
    new Promise<void>((resolve) => {
      const worker = new Worker(new URL("./scan_worker.ts", import.meta.url), { type: "module" });
      const pending = new Set<string>();
      const handOut = () => {
        while (pending.size < IN_FLIGHT) {
          const next = queue.next();
          if (next.done) break;
          pending.add(next.value);
          worker.postMessage({ paths: [next.value] } satisfies ReadRequest);
        }
        if (pending.size === 0) {
          worker.terminate();
          resolve();
        }
      };
      worker.onmessage = (e: MessageEvent<ReadAnswer>) => {
        const answer = e.data;
        pending.delete(answer.path);
        landed(answer.path, "read" in answer ? answer.read : new Error(answer.error));
        handOut();
      };
      worker.onerror = (e) => {
        e.preventDefault();
        failure = `the reader thread failed: ${e.message}`;
        for (const path of pending) landed(path, new Error(failure));
        worker.terminate();
        resolve();
      };
      handOut();
    });
  await Promise.all(Array.from({ length: Math.min(threads, paths.length) }, thread));
  // Every thread failed before the queue emptied: what is left was never read.
  for (const path of queue) landed(path, new Error(failure || "no reader thread"));
}
