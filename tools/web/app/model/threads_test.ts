import { assertEquals, assertMatch } from "../../../../tests/assert.ts";
import { contentHash as serverHash } from "../../../../subsystems/review/hash.ts";
import { ReviewThread } from "../../../../subsystems/review/threads.ts";
import { contentHash, newThread, withReply } from "./threads.ts";

// A thread the page writes is one the server's own schema accepts, and its anchor hash is the
// server's convention (spec: content_hash as DECIMAL DIGITS).
Deno.test("threads: a new thread and a reply parse as the server's ReviewThread", async () => {
  assertEquals(await contentHash("line 5"), await serverHash("line 5"));
  const t = await newThread(
    { path: "a.txt", line: 5, text: "line 5", context: ["line 4", "line 5"], baseRef: "main" },
    "why?",
  );
  assertMatch(t.anchor.content_hash, /^\d+$/);
  ReviewThread.parse(t);
  const replied = withReply(t, "because");
  ReviewThread.parse(replied);
  assertEquals(replied.comments.map((c) => c.text), ["why?", "because"]);
});
