import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { type ScriptedMessage, SessionLines, slugFor } from "./sample_lines.ts";
import { UsageScanner, type UsageScanResult } from "./scanner.ts";

// A rescan folds only what the pool gained into the report it kept (scanner.ts #grow). Checked
// the only way that says it is right: against a report folded from scratch, over rounds of what
// happens to a pool - turns appended, new sessions, forks copying another session's messages
// (counted once, in the first file in path order), files written anew or deleted, the account
// ledger naming new requests (or, late, an old one), and the clock moving within the day.

const DAY = new Date("2026-12-02T12:00:00Z");
const PROJECTS = [{ name: "app", path: "/w/app" }, { name: "api", path: "/w/api" }];

/** A small seeded generator (mulberry32), so a failing round can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A snapshot with each cost to 12 significant digits: a sum taken in another order can differ
 * in its last bits. */
function rounded(snapshot: unknown): unknown {
  return JSON.parse(
    JSON.stringify(snapshot),
    (k, v) => k === "cost_usd" && typeof v === "number" ? Number(v.toPrecision(12)) : v,
  );
}

interface Made {
  id: string;
  requestId: string;
  input: number;
}

function message(m: Made, at: Date): ScriptedMessage {
  return {
    id: m.id,
    requestId: m.requestId,
    model: m.input % 2 ? "claude-opus-5-5" : "claude-haiku-5-5",
    at,
    input: m.input,
    output: 3,
    cacheCreation: 0,
    cacheRead: 10,
    blocks: m.input % 3 ? ["text"] : ["thinking", "text"],
  };
}

Deno.test("usage: a rescan that folds only what the pool gained reports what a fresh fold does", async () => {
  const root = await Deno.makeTempDir({ prefix: "usage_grow_" });
  try {
    for (const seed of [1, 2, 3]) {
      const rand = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
      const pool = join(root, `pool${seed}`);
      const made: Made[] = [];
      const files = new Map<string, string>(); // path -> cwd
      let n = 0;
      const fresh = (): Made => {
        const m = { id: `msg_${seed}_${n}`, requestId: `req_${seed}_${n}`, input: n++ };
        made.push(m);
        return m;
      };
      const lines = (cwd: string, ms: Made[], at: Date) => {
        const s = new SessionLines(`s${n}`, cwd);
        for (const m of ms) s.prompt("go", at).message(message(m, at));
        return s.text();
      };
      const newFile = async (ms: Made[], at: Date) => {
        const cwd = pick(PROJECTS).path;
        const path = join(pool, "projects", slugFor(cwd), `${pick(["a", "m", "z"])}${n}.jsonl`);
        await Deno.mkdir(dirname(path), { recursive: true });
        await Deno.writeTextFile(path, lines(cwd, ms, at));
        files.set(path, cwd);
      };
      const accounts = new Map<string, string>();
      const scanner = new UsageScanner({ configDirs: [pool], projects: PROJECTS });
      const seen: UsageScanResult["report"][] = [];
      for (let round = 0; round < 40; round++) {
        const at = new Date(DAY.getTime() + round * 60_000);
        const steps = 1 + Math.floor(rand() * 3);
        for (let s = 0; s < steps || files.size === 0; s++) {
          const r = rand();
          if (files.size === 0 || r < 0.15) await newFile([fresh(), fresh()], at);
          else if (r < 0.6) {
            const [path, cwd] = pick([...files]);
            await Deno.writeTextFile(path, lines(cwd, [fresh()], at), { append: true });
          } else if (r < 0.7) {
            // A fork: a new file carrying messages another file counted already.
            await newFile([pick(made), pick(made), fresh()], at);
          } else if (r < 0.75) {
            const [path, cwd] = pick([...files]);
            await Deno.writeTextFile(path, lines(cwd, [pick(made)], at), { append: true });
          } else if (r < 0.8) {
            const [path, cwd] = pick([...files]);
            await Deno.writeTextFile(path, lines(cwd, [fresh()], at)); // written anew
          } else if (r < 0.85 && files.size > 1) {
            const [path] = pick([...files]);
            await Deno.remove(path);
            files.delete(path);
          } else if (r < 0.95) {
            accounts.set(made.at(-1)!.requestId, pick(["Main", "Spare"])); // the newest request
          } else {
            accounts.set(pick(made).requestId, "Late"); // an old request named late
          }
        }
        const ledger = new Map(accounts);
        const got = await scanner.scan(at, ledger);
        const want = await new UsageScanner({ configDirs: [pool], projects: PROJECTS }).scan(
          at,
          ledger,
        );
        assertEquals(rounded(got.snapshot), rounded(want.snapshot), `seed ${seed}, round ${round}`);
        seen.push(got.report);
      }
      // The rounds took each way; most only folded what was new.
      ok(seen.filter((r) => r === "grown").length > 15, `seed ${seed}: ${seen.join(" ")}`);
      ok(seen.includes("folded"), `seed ${seed}: ${seen.join(" ")}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
