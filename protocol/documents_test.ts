// spec: document_read (the answer's shape) and answer_document_hand_off (approve / feedback with
// review_id and note, or "not_now"; never a bare done): read by the envelope's own schemas.
import { assertEquals } from "../tests/assert.ts";
import { ClientMessage } from "./client.ts";
import { describeIssues } from "./issues.ts";
import { parseIgnoringUnknownFields } from "./lenient.ts";
import { ServerMessage } from "./server.ts";

const key = { org: "Acme", project: "proj", label: "lead" };

function answer(value: unknown): string {
  const r = parseIgnoringUnknownFields(ClientMessage, {
    kind: "answer_document_hand_off",
    key,
    id: "h-1",
    answer: value,
  });
  return r.success ? "ok" : describeIssues(r.error);
}

Deno.test("HandOffAnswer: the three answers parse; a bare done or a half verdict is refused", () => {
  assertEquals(answer({ approve: { review_id: "review-1", note: "ship it" } }), "ok");
  assertEquals(answer({ feedback: { review_id: null, note: null } }), "ok");
  assertEquals(answer("not_now"), "ok");
  assertEquals(answer("done"), 'answer: expected "not_now" or an object, got a string');
  assertEquals(
    answer({ approve: { review_id: "r" } }),
    "answer.approve.note: missing (expected a string)",
  );
  assertEquals(
    answer({ reject: {} }),
    'answer: expected "not_now" or {"approve": …} or {"feedback": …}, got an object',
  );
});

const thread = {
  id: "t1",
  anchor: {
    path: "a.md",
    side: "new",
    line: 2,
    content_hash: "1",
    context: ["two"],
    base_ref: "main",
  },
  comments: [{ author: "user", text: "why?", at: "2026-12-02T10:00:00Z", review_id: "r1" }],
  status: "open",
  created_at: "2026-12-02T10:00:00Z",
  updated_at: "2026-12-02T10:00:00Z",
  commit: null,
  resolution: { line: 2 },
};
const read = {
  kind: "document_read",
  session: key,
  path: "/tree/a.md",
  document_kind: "markdown",
  bytes: "b25lCnR3bwo=",
  reviewable: true,
  content_hash: "123",
  threads: [thread],
  reviews: [{ id: "r1", number: 1, summary: null, created_at: "2026-12-02T10:00:00Z" }],
};

function received(value: unknown): string {
  const r = ServerMessage.safeParse(value, { reportInput: true });
  return r.success ? "ok" : describeIssues(r.error);
}

Deno.test("DocumentReadFrame: the kind, each thread's resolution and the reviews are schemas", () => {
  assertEquals(received(read), "ok");
  assertEquals(received({ ...read, document_kind: { other: "rst" } }), "ok");
  assertEquals(received({ ...read, threads: [{ ...thread, resolution: null }] }), "ok");
  assertEquals(received({ ...read, threads: [{ ...thread, resolution: "outdated" }] }), "ok");
  assertEquals(
    received({ ...read, document_kind: "docx" }),
    'document_kind: expected one of "markdown", "pdf", "text" or an object, got a string',
  );
  assertEquals(
    received({ ...read, threads: [{ ...thread, resolution: undefined }] }),
    'threads.0.resolution: missing (expected an object or "outdated")',
  );
  assertEquals(
    received({ ...read, threads: [{ ...thread, extra: 1 }] }),
    "threads.0: unknown field `extra`",
  );
  assertEquals(
    received({ ...read, reviews: [{ id: "r1" }] }).startsWith("reviews.0.number: "),
    true,
  );
});
