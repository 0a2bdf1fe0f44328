// The board's spawned tests' shared reads of the fake API and the lead's CLI (forge in-process,
// the real claude CLI on the fake Messages API): tests/board_spawned_test.ts,
// tests/cron_restarts_test.ts.
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert } from "./assert.ts";
import { childrenOf, commandOf, cwdOf, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

/** The main requests whose last message is a prompt carrying `needle` in its own text (a tool
 * result that quotes it - cron__create's answer echoes the prompt - is not a fire). */
export async function requestsWith(world: { apiRequests(): Promise<unknown[]> }, needle: string) {
  const all = await world.apiRequests() as { kind: string; body: { messages?: Msg[] } }[];
  const text = (m: Msg | undefined) => {
    const c = m?.content;
    if (typeof c === "string") return c;
    return Array.isArray(c)
      ? c.map((b: Msg) => (b.type === "text" ? String(b.text) : "")).join("")
      : "";
  };
  return all.filter((r) => r.kind === "main" && text(r.body.messages?.at(-1)).includes(needle));
}

/** Waits until a main request's last message carries `needle` (bounded as a failure). */
export async function untilRequested(
  world: { apiRequests(): Promise<unknown[]> },
  needle: string,
) {
  const deadline = Date.now() + 120_000;
  while ((await requestsWith(world, needle)).length === 0) {
    if (Date.now() > deadline) throw new Error(`"${needle}" never reached the fake API`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * SIGKILLs the lead's CLI (it runs under this process: forge is in-process) and waits for forge
 * to tell it: the CLI's memory goes with it, as a crash takes it (a stop may let a CLI drain its
 * queue).
 */
export async function crashLead(world: { projectDir(p: string): string }, c: ForgeClient) {
  const pid = childrenOf(Deno.pid).flatMap((p) => [p, ...childrenOf(p)]).find((p) =>
    cwdOf(p) === world.projectDir("alpha") && commandOf(p).includes("claude")
  )!;
  assert(pid, "the lead's CLI runs under this process");
  Deno.kill(pid, "SIGKILL");
  await c.next((m) => !!updateOf(m, "connection_failed"), 30_000);
}
