import { assert, assertEquals } from "../../../tests/assert.ts";
import { lineFrame, rowFrame } from "./rows.ts";
import { promptUuid, REAL, realPath } from "../../../tests/conversation_support.ts";

async function realRows(name: keyof typeof REAL): Promise<Array<Record<string, unknown>>> {
  const text = await Deno.readTextFile(realPath(name));
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test("spec more: the reader maps user, assistant and system rows and nothing else (real transcripts)", async () => {
  for (const name of Object.keys(REAL) as Array<keyof typeof REAL>) {
    const lines = (await Deno.readTextFile(realPath(name))).split("\n").filter(Boolean);
    for (const line of lines) {
      const row = JSON.parse(line);
      const frame = lineFrame(line); // the text prefilter, then the parse
      assertEquals(frame, rowFrame(row));
      const queued = row.type === "attachment" &&
        (row.attachment as { type?: string }).type === "queued_command";
      const carried = ["user", "assistant", "system"].includes(String(row.type)) || queued;
      assertEquals(frame !== null, carried, `${name}: ${row.type}`);
      if (frame) assertEquals(frame.type, queued ? "user" : row.type);
    }
  }
});

Deno.test("spec Two representations: a row is the CLI's own row with the stream frame's envelope spelling", async () => {
  const rows = await realRows("tool_bash");
  const result = rows.find((r) => r.toolUseResult !== undefined)!;
  const frame = rowFrame(result)!;
  assertEquals(frame.tool_use_result, result.toolUseResult as never);
  assertEquals(frame.session_id, result.sessionId as never);
  assertEquals(frame.parent_tool_use_id, null);
  assertEquals(frame.uuid, result.uuid as never);
  assertEquals(frame.sourceToolAssistantUUID, result.sourceToolAssistantUUID as never);
  assert(!("toolUseResult" in frame) && !("sessionId" in frame));
  // Every other key is kept, and nothing else is added.
  const renamed = new Set(["toolUseResult", "sessionId"]);
  assertEquals(
    Object.keys(frame).sort(),
    [
      ...Object.keys(result).filter((k) => !renamed.has(k)),
      "tool_use_result",
      "session_id",
      "parent_tool_use_id",
    ].sort(),
  );
  const assistant = rowFrame(rows.find((r) => r.type === "assistant")!)!;
  assert(typeof assistant.request_id === "string" && !("requestId" in assistant));
});

Deno.test("spec Two representations: a queued mid-turn prompt is the user frame it stands for, under the id it was sent with", async () => {
  const rows = await realRows("queued_prompt");
  const row = rows.find((r) =>
    r.type === "attachment" && JSON.stringify(r).includes("queued_command")
  )!;
  const frame = rowFrame(row)!;
  assertEquals(frame.type, "user");
  assertEquals(frame.uuid, promptUuid("d2"));
  assertEquals(frame.message, { role: "user", content: "Also, note this mid-turn." });
  assert(!("rendered" in frame), "the model-facing copy is dropped");
  assertEquals((frame.attachment as { source_uuid: string }).source_uuid, promptUuid("d2"));
});

Deno.test("spec more: a torn line, a non-object and a sidechain row map to nothing", () => {
  assertEquals(lineFrame('{"type":"user","message":{"role":"user","content":"hi"'), null);
  assertEquals(lineFrame('["type","user"]'), null);
  assertEquals(lineFrame('{"type":"user","isSidechain":true,"message":{}}'), null);
  assertEquals(lineFrame('{"type":"user","message":"not an object"}'), null);
  assertEquals(lineFrame('{"type":"queue-operation","operation":"enqueue"}'), null);
  assert(lineFrame('{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}'));
});
