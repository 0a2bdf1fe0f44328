// The SDK against a real forge run as a person runs it (`deno task start`): typed commands run to
// their reply or their refusal, a subject is followed, and the connection's end settles every
// wait at once. spec: What a client sends > command (reply_to); The socket > Reaching it.
import type { ReviewThread } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "../tests/assert.ts";
import { SAMPLE_CONFIG } from "../tests/harness.ts";
import { spawnForge } from "../tests/spawned.ts";
import {
  ConnectFailed,
  ConnectionClosed,
  ForgeClient,
  ForgeRefusal,
  type ReplyOf,
} from "./client_lib.ts";

/** What a promise rejected with (or a function threw); fails when it settled otherwise. */
async function caught(work: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (err) {
    return err as Error;
  }
  throw new Error("it did not fail");
}

/**
 * Sends are typed by protocol/'s ClientMessage and commands by its COMMANDS table: each
 * `@ts-expect-error` keeps `deno check` green only while its line fails to type-check, so the day
 * `send` or `command` loosens, this file fails. Never called: it is there to be checked.
 */
function _typedOnly(c: ForgeClient): void {
  // @ts-expect-error a misspelt kind
  c.send({ kind: "subscirbe", what: "home" });
  // @ts-expect-error a misspelt field
  c.send({ kind: "subscribe", wat: "home" });
  // @ts-expect-error a subject there is not
  c.send({ kind: "subscribe", what: "hom" });
  // @ts-expect-error a command COMMANDS does not hold
  c.command("vault_lok", null);
  // @ts-expect-error a command's field left off (task_create's parent)
  c.command("task_create", { project: "p", subject: "s" });
  // A reply command answers its reply schema's type; a fire-and-forget one null.
  const _stored: Promise<boolean> = c.command("upsert_review_thread", {
    project: "p",
    branch: "main",
    thread: THREAD,
  });
  const _none: Promise<ReplyOf<"task_create">> = c.command("task_create", {
    project: "p",
    subject: "s",
    parent: null,
  });
  const _null: Promise<null> = _none;
  // A reply verb answers its VERB_REPLIES arm, typed by the verb it sent.
  const seat = { org: "o", project: "p", label: "lead" };
  const _view: Promise<{ ok: true; id: number }> = c.verb({ kind: "terminal_view", seat });
  // @ts-expect-error terminal_view answers a terminal's id, not a tab strip
  const _tabs: Promise<{ tabs: unknown }> = c.verb({ kind: "terminal_view", seat });
  // @ts-expect-error ping answers no reply
  c.verb({ kind: "ping" });
}

const THREAD: ReviewThread = {
  id: "t1",
  anchor: {
    path: "a.txt",
    side: "new",
    line: 2,
    content_hash: "1",
    context: ["two"],
    base_ref: "main",
  },
  comments: [{ author: "user", text: "call it 2", at: "2026-12-02T10:00:00Z", review_id: null }],
  status: "open",
  created_at: "2026-12-02T10:00:00Z",
  updated_at: "2026-12-02T10:00:00Z",
  commit: null,
};

Deno.test("sdk: typed commands answer their reply, take, or refuse in forge's words", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await ForgeClient.connect(forge.url, { validate: true });
  assertEquals((await c.nextKind("greeting")).version, 29);
  await c.nextKind("settings");

  // A reply command: reply_to allocated, the reply matched and read as its schema's type.
  const stored: boolean = await c.command("upsert_review_thread", {
    project: "proj",
    branch: "main",
    thread: THREAD,
  });
  assertEquals(stored, true);
  // A fire-and-forget command answers null once forge has taken it: the board read after it
  // holds the task.
  assertEquals(
    await c.command("task_create", { project: "proj", subject: "ship", parent: null }),
    null,
  );
  const board = c.follow("board");
  const first = await board.take();
  assert(first.kind === "snapshot");
  assertEquals(first.data.projects.flatMap((p) => p.rows.map((r) => r.task.subject)), ["ship"]);
  board.stop();

  // A reply command's refusal rides its reply; any other's is an error frame. Both reject.
  const material = await caught(c.command("vault_enrolment_material", {}));
  assert(material instanceof ForgeRefusal, String(material));
  assertEquals(material.what, "vault_enrolment_material");
  assertMatch(material.why, /vault/);
  const lock = await caught(c.command("vault_lock", null));
  assert(lock instanceof ForgeRefusal, String(lock));
  assertEquals([lock.what, lock.message], ["dispatch", lock.why]);
  assertMatch(lock.why, /vault/);
  // The commands' own pings are the client's: no test waiting for a pong reads them.
  c.send({ kind: "ping" });
  await c.nextKind("pong");
  assertEquals(
    c.frames.filter((f) => f.type === "json" && f.data.kind === "pong").length > 1,
    true,
  );
  await c.close();
  assertEquals(c.schemaErrors, []);
});

Deno.test("sdk: the connection's end settles every wait at once; a send after it throws", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await ForgeClient.connect(forge.url);
  await c.nextKind("settings");
  // Timeouts a minute out: only the close can settle these within the test.
  const wait = c.next(() => false, 60_000);
  const kind = c.nextKind("page", () => true, 60_000);
  const asked = c.command("vault_lock", null, 60_000);
  const settled = Promise.allSettled([wait, kind, asked]);
  await c.close();
  for (const outcome of await settled) {
    assert(outcome.status === "rejected");
    assert(outcome.reason instanceof ConnectionClosed, String(outcome.reason));
    assertEquals(outcome.reason.code, 1000);
  }
  assertEquals(
    (await caught(wait)).message,
    "the wait for a frame ended: the connection to forge is closed " +
      "(code 1000, a normal close: closed by this client)",
  );
  const sent = await caught(() => c.send({ kind: "ping" }));
  assert(sent instanceof ConnectionClosed);
  assertMatch(sent.message, /^`ping` was not sent: the connection to forge is closed/);
  const late = await caught(c.command("vault_lock", null));
  assert(late instanceof ConnectionClosed);
  assertMatch(late.message, /^`vault_lock` was not sent/);

  // forge ending the connection (a shutdown) settles a wait too, with forge's close.
  const d = await ForgeClient.connect(forge.url);
  await d.nextKind("settings");
  const held = caught(d.next(() => false, 60_000));
  await forge.stop();
  const ended = await held;
  assert(ended instanceof ConnectionClosed, String(ended));
  assertEquals([ended.code, d.isClosed], [1001, true]);
  assert((await caught(() => d.send({ kind: "ping" }))) instanceof ConnectionClosed);
});

Deno.test("sdk: a refused upgrade says why in forge's words, and so does nothing listening", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const refused = await caught(
    ForgeClient.connect(forge.url, { origin: "http://localhost.evil.com" }),
  );
  assert(refused instanceof ConnectFailed, String(refused));
  assertEquals([refused.status, refused.message], [
    403,
    "forge refused the connection (HTTP 403: the page origin is not allowed; " +
    "see [server] allowed_origins)",
  ]);
  const wrongPath = await caught(ForgeClient.connect(forge.url.replace("/socket", "/sock")));
  assert(wrongPath instanceof ConnectFailed);
  assertEquals(wrongPath.status, 404);
  await forge.stop();
  const gone = await caught(ForgeClient.connect(forge.url));
  assert(gone instanceof ConnectFailed, String(gone));
  assertEquals([gone.status, gone.message], [
    null,
    `nothing answered at ${forge.url} (connection refused)`,
  ]);
});

Deno.test("sdk: sendChecked ties a fire-and-forget message's refusal to its send", async () => {
  await using forge = await spawnForge(SAMPLE_CONFIG);
  const c = await ForgeClient.connect(forge.url, { validate: true });
  await c.nextKind("settings");
  const nowhere = { org: "Acme", project: "nowhere", label: "lead" };
  // Three sent at once: each settles with its own outcome, in forge's words where it refused.
  const [shown, voice, prompt] = await Promise.allSettled([
    c.sendChecked({ kind: "showing", seat: null }),
    c.sendChecked({ kind: "voice_mode", key: nowhere, on: true, explicit: true }),
    c.sendChecked({
      kind: "command",
      command: { prompt: { key: nowhere, text: "hi", attachments: [] } },
    }),
  ]);
  assertEquals(shown, { status: "fulfilled", value: null });
  const refusals = [[voice, /turned off by tts\.enabled/], [prompt, /nowhere/]] as const;
  for (const [outcome, words] of refusals) {
    assert(outcome.status === "rejected");
    const err = outcome.reason;
    assert(err instanceof ForgeRefusal, String(err));
    assertMatch(err.why, words);
  }
  // The refusals were the sends' own: none is left for a wait on `error` frames to misread.
  assertEquals(c.frames.filter((f) => f.type === "json" && f.data.kind === "error").length, 2);
  await c.close();
  const late = await caught(c.sendChecked({ kind: "showing", seat: null }));
  assert(late instanceof ConnectionClosed);
  assertEquals(c.schemaErrors, []);
});
