// Sessions against the real CLI: --session-id names the transcript, --resume continues it
// with the history, a reused --session-id fails before any frame, and API errors keep the
// process alive (as the pinned CLI, 2.1.332, does them).
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { lastUserText } from "../../../fixtures/fake_api/mod.ts";
import { transcriptPath } from "./paths.ts";
import { startHarness } from "../../../tests/claude_support.ts";
import type { JsonObject } from "./types.ts";

const SID = "5e551011-1d00-4a6b-9c3e-0123456789ab";

async function transcript(path: string): Promise<JsonObject[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("--session-id writes <config>/projects/<slug>/<id>.jsonl; --resume continues it", async () => {
  await using h = await startHarness({
    replies: [
      { content: [{ type: "text", text: "noted PINEAPPLE" }] },
      { content: [{ type: "text", text: "it was PINEAPPLE" }] },
    ],
  });
  const a = h.spawn({ argv: { sessionId: SID } });
  const u1 = a.proc.sendUserMessage("remember PINEAPPLE");
  const r1 = await a.log.next("result");
  strictEqual(r1.session_id, SID);
  strictEqual((await a.proc.close()).code, 0);
  const path = transcriptPath(h.configDir, h.cwd, SID);
  const before = await transcript(path);
  ok(before.some((l) => l.type === "user" && l.uuid === u1));

  const b = h.spawn({ argv: { resume: SID } });
  const u2 = b.proc.sendUserMessage("what was it?");
  const r2 = await b.log.next("result");
  deepStrictEqual([r2.session_id, r2.result], [SID, "it was PINEAPPLE"]);
  const init = b.log.frames.find((f) => f.type === "system" && f.subtype === "init")!;
  strictEqual(init.session_id, SID);
  strictEqual((await b.proc.close()).code, 0);

  // The resumed call carried the history; the same file grew.
  const resumed = h.api.mainRequests()[1].body;
  strictEqual(lastUserText(resumed), "what was it?");
  const texts = JSON.stringify(resumed?.messages);
  ok(texts.includes("remember PINEAPPLE") && texts.includes("noted PINEAPPLE"), "history was sent");
  const after = await transcript(path);
  ok(after.length > before.length);
  deepStrictEqual(
    after.filter((l) => l.type === "user" && typeof (l.message as JsonObject).content === "string")
      .map((l) => l.uuid),
    [u1, u2],
  );

  // Reusing the id fails at startup: exit 1, no frame, the reason only on stderr.
  const c = h.spawn({ argv: { sessionId: SID } });
  c.proc.sendUserMessage("again");
  const exit = await c.proc.exited;
  strictEqual(exit.code, 1);
  match(exit.stderrTail, /Session ID .* is already in use/);
  await c.log.ended;
  deepStrictEqual(c.log.frames, []);
});

Deno.test("a 529 answer becomes a synthetic assistant frame and an error result; the CLI lives on", async () => {
  await using h = await startHarness({
    replies: [
      { error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
      { content: [{ type: "text", text: "recovered" }] },
    ],
  });
  const { proc, log } = h.spawn();
  proc.sendUserMessage("first");
  const failed = await log.next("result");
  deepStrictEqual([failed.subtype, failed.is_error, failed.api_error_status], [
    "success",
    true,
    529,
  ]);
  match(String(failed.result), /API Error: 529/);
  const synthetic = log.frames.find((f) => f.type === "assistant")!;
  deepStrictEqual(
    [(synthetic.message as JsonObject).model, synthetic.error, synthetic.api_error_status],
    [
      "<synthetic>",
      "server_error",
      529,
    ],
  );

  const mark = log.mark();
  proc.sendUserMessage("second");
  const ok2 = await log.next("result", undefined, mark);
  deepStrictEqual([ok2.is_error, ok2.result], [false, "recovered"]);
  // x-should-retry: false kept the CLI from retrying: exactly two main calls.
  strictEqual(h.api.mainRequests().length, 2);
  strictEqual((await proc.close()).code, 0);
});
