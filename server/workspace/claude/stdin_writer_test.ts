// The stdin writer: one validated line per object, and callers never wait on the pipe.
import { match, ok, strictEqual, throws } from "node:assert/strict";
import { encodeLine, StdinWriter } from "./stdin_writer.ts";
import type { JsonObject } from "./types.ts";

Deno.test("encodeLine: one line whatever the text holds; U+2028/2029 escaped; round-trips", () => {
  const text = "a\nb\r\nc\u2028d\u2029e\u0000f\ud800g";
  const line = encodeLine({ type: "user", message: { role: "user", content: text } });
  ok(!/[\n\r\u2028\u2029]/.test(line));
  strictEqual(JSON.parse(line).message.content, text);
});

Deno.test("encodeLine: refuses what cannot be one JSON object line", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  throws(() => encodeLine(cyclic as unknown as JsonObject), /cannot serialise line/);
  throws(() => encodeLine({ n: 1n } as unknown as JsonObject), /cannot serialise line/);
});

Deno.test("StdinWriter: send never waits on a pipe nobody reads; a dead reader breaks it", async () => {
  // `sleep` never reads stdin: the pipe fills (64 KiB) and writes stall.
  const child = new Deno.Command("sleep", {
    args: ["30"],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = new StdinWriter(child.stdin);
  const big = "x".repeat(16 * 1024);
  // send is synchronous: all 64 lines (1 MiB) are taken while the pipe holds at most 64 KiB, so
  // the loop ends with most of them still queued rather than waiting for a reader.
  for (let i = 0; i < 64; i++) strictEqual(w.send({ type: "user", i, big }), undefined);
  ok(w.pending >= 60, `${w.pending} of 64 lines still queued: send handed none to the pipe itself`);
  child.kill("SIGKILL");
  await child.status;
  await w.flushed();
  ok(w.broken !== null, "the write failed once the reader died");
  strictEqual(w.pending, 0);
  throws(() => w.send({ type: "user" }), /claude stdin is broken/);
  await w.close();
});

Deno.test("StdinWriter: lines arrive in order, each JSON on its own line; close gives EOF", async () => {
  const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped", stderr: "null" })
    .spawn();
  const w = new StdinWriter(child.stdin);
  for (let i = 0; i < 100; i++) w.send({ type: "n", i, s: "line\nbreak" });
  await w.close();
  throws(() => w.send({ type: "late" }), /closed/);
  const out = await child.output();
  const lines = new TextDecoder().decode(out.stdout).split("\n");
  strictEqual(lines.pop(), "");
  strictEqual(lines.length, 100);
  lines.forEach((l, i) => strictEqual(JSON.parse(l).i, i));
  match(lines[0], /line\\nbreak/);
});
