// The commands whose fields were once a bag of JSON, checked by each handler: their schemas now
// live here (protocol/), so the decoder refuses a bad field by name, in forge's words, before any
// handler runs, and a good bag decodes to typed fields. spec: command; the original's Commands.
import { assertEquals } from "../tests/assert.ts";
import type { z } from "zod";
import { CommandRefused, commandWire, decodeCommand, replySchema } from "./command_wire.ts";

const SLOT = { org: "Acme", project: "alpha", label: "lead" };
const WRAPPED = {
  id: "m-1",
  kind: "message",
  sender_name: "beta",
  sender_org: "Acme",
  body: "hi",
};
const NOTE = { app: "ci", title: "red", message: "build 7 failed", priority: 5 };
const THREAD = {
  id: "t1",
  anchor: { path: "a.ts", side: "new", line: 2, content_hash: "17", context: [], base_ref: "main" },
  comments: [{ author: { agent: { label: "w1" } }, text: "done", at: "now", review_id: null }],
  status: "open",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  commit: null,
};
const REVIEW = { project: "alpha", branch: "main" };

function refused(raw: unknown): CommandRefused {
  try {
    decodeCommand(raw);
  } catch (err) {
    if (err instanceof CommandRefused) return err;
    throw err;
  }
  throw new Error(`not refused: ${JSON.stringify(raw)}`);
}

/** Each command: a good bag, and a bad one with the exact refusal it earns. */
const CASES: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
  [
    "deliver_peer_prompt",
    { caller: SLOT, target_project: "beta", wrapped: WRAPPED },
    { caller: SLOT, target_project: "beta", wrapped: { ...WRAPPED, kind: "shout" } },
    'deliver_peer_prompt: wrapped.kind: expected one of "message", "delivery_failure_notice", "worker_spawn_failed_notice", got "shout"',
  ],
  [
    "deliver_gotify_message",
    { project: "alpha", notification: NOTE },
    { project: "alpha", notification: { ...NOTE, priority: 300 } },
    "deliver_gotify_message: notification.priority: must be at most 255",
  ],
  [
    "biometric_enrol",
    { device: "laptop", purpose: "vault", blob: "b" },
    { device: "laptop", purpose: "vault" },
    "biometric_enrol: blob: missing (expected a string)",
  ],
  [
    "biometric_release",
    { device: "laptop", purpose: "vault" },
    { device: 7, purpose: "vault" },
    "biometric_release: device: expected a string, got 7",
  ],
  [
    "biometric_rewrite",
    { device: "laptop", purpose: "vault", blob: "b" },
    { device: "laptop", purpose: "", blob: "b" },
    "biometric_rewrite: purpose: must not be empty",
  ],
  [
    "vault_enrolment_material",
    {},
    [] as unknown as Record<string, unknown>,
    "vault_enrolment_material: (message): expected an object, got a list",
  ],
  [
    "save_review_threads",
    { ...REVIEW, threads: [THREAD] },
    { ...REVIEW, threads: [{ ...THREAD, anchor: { ...THREAD.anchor, line: -1 } }] },
    "save_review_threads: threads.0.anchor.line: must be at least 0",
  ],
  [
    "upsert_review_thread",
    { ...REVIEW, thread: THREAD },
    { ...REVIEW, thread: { ...THREAD, comments: [{ ...THREAD.comments[0], author: 7 }] } },
    'upsert_review_thread: thread.comments.0.author: expected "user" or an object, got 7',
  ],
  [
    "set_review_thread_status",
    { ...REVIEW, thread_id: "t1", status: "resolved" },
    { ...REVIEW, thread_id: "t1", status: "closed" },
    'set_review_thread_status: status: expected one of "open", "addressed", "resolved", "outdated", got "closed"',
  ],
  [
    "spawn_session",
    { key: { ...SLOT, label: "w1" }, role: { worker: { label: "w1" } }, launch_settings: {} },
    { key: SLOT, role: "boss", launch_settings: {} },
    'spawn_session: role: expected "lead" or an object, got a string',
  ],
];

for (const [name, good, bad, why] of CASES) {
  Deno.test(`${name}: good fields decode typed; a bad field is refused by name`, () => {
    const decoded = decodeCommand({ [name]: good });
    assertEquals(decoded, { name, fields: good } as never);
    const err = refused({ [name]: bad });
    assertEquals([err.command, err.message], [name, why]);
  });
}

Deno.test("a union's nearest form names the field inside it", () => {
  const agent = { ...THREAD.comments[0], author: { agent: { label: 3 } } };
  const err = refused({
    upsert_review_thread: { ...REVIEW, thread: { ...THREAD, comments: [agent] } },
  });
  assertEquals(
    err.message,
    "upsert_review_thread: thread.comments.0.author.agent.label: expected a string, got 3",
  );
});

Deno.test("an unknown variant is refused without a name to answer through", () => {
  const err = refused({ warp_drive: {} });
  assertEquals([err.command, err.message], [null, "unknown command `warp_drive`"]);
});

Deno.test("spawn_session: a lead or a worker role decodes as sent; a worker's label is a string", () => {
  for (const role of ["lead", { worker: { label: "w1", wrote_row: false } }]) {
    const fields = { key: SLOT, role, launch_settings: {} };
    assertEquals(
      decodeCommand({ spawn_session: fields }),
      { name: "spawn_session", fields } as never,
    );
  }
  const err = refused({
    spawn_session: { key: SLOT, role: { worker: { label: 3 } }, launch_settings: {} },
  });
  assertEquals(err.message, "spawn_session: role.worker.label: expected a string, got 3");
});

Deno.test("replySchema: a reply command's schema is typed as its body", () => {
  const filed = replySchema("submit_review").parse({
    id: "r1",
    number: 1,
    summary: null,
    created_at: "2026-01-01T00:00:00Z",
  });
  const stored: boolean = replySchema("upsert_review_thread").parse(true);
  // @ts-expect-error: upsert_review_thread's body is a bool, not a string
  const wrong: string = replySchema("upsert_review_thread").parse(true);
  // @ts-expect-error: a command with no reply may have no schema (null)
  const none: z.ZodType = replySchema("cancel");
  assertEquals([filed?.number, stored, wrong, none], [1, true, true, null]);
});

Deno.test("a command written with commandWire reads back whole: a unit variant and a struct", () => {
  const unit = commandWire("vault_lock", null);
  const struct = commandWire("cancel", { key: SLOT });
  assertEquals([unit, struct], ["vault_lock", { cancel: { key: SLOT } }]);
  assertEquals([decodeCommand(unit), decodeCommand(struct)], [
    { name: "vault_lock", fields: null },
    { name: "cancel", fields: { key: SLOT } },
  ]);
});
