// spec: session row `reviews` (threads and reviews read separately, an unreadable one reported
// as failed, never as empty) and the five review commands.
import { deepStrictEqual, match, ok, rejects, strictEqual as equal } from "node:assert/strict";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper, TEMP_SUFFIX } from "../../server/state/keeper.ts";
import { contentHash } from "./hash.ts";
import { type ReviewThread, ThreadStore } from "./threads.ts";
import { cleanup, tempDir } from "../../tests/review_support.ts";

const NOW = new Date("2026-01-02T03:04:05.000Z");

async function thread(id: string, text = "why this?"): Promise<ReviewThread> {
  return {
    id,
    anchor: {
      path: "src/a.ts",
      side: "new",
      line: 12,
      content_hash: await contentHash("const x = 1;"),
      context: ["const x = 1;", "const y = 2;"],
      base_ref: "main",
    },
    comments: [
      { author: "user", text, at: "2026-01-01T00:00:00Z", review_id: null },
      {
        author: { agent: { label: "impl" } },
        text: "done",
        at: "2026-01-01T00:01:00Z",
        review_id: null,
      },
    ],
    status: "open",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:01:00Z",
    commit: null,
  };
}

function leftovers(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(TEMP_SUFFIX));
}

Deno.test("threads: upsert, save, remove and set status round-trip through the store", async () => {
  const dir = await tempDir();
  try {
    const store = new ThreadStore(new StateKeeper(memoryLogger()), dir, () => NOW);
    deepStrictEqual(await store.readScope("p", "feat/x"), {
      threads: { outcome: "read", value: [] },
      reviews: { outcome: "read", value: [] },
    });
    const t1 = await thread("t1");
    equal(await store.upsert("p", "feat/x", t1), true);
    deepStrictEqual(await store.readThreads("p", "feat/x"), { outcome: "read", value: [t1] });
    const t1b = { ...t1, status: "addressed" as const };
    equal(await store.upsert("p", "feat/x", t1b), true);
    equal(await store.upsert("p", "feat/x", await thread("t2")), true);
    const read = await store.readThreads("p", "feat/x");
    deepStrictEqual(read.outcome === "read" && read.value.map((t) => [t.id, t.status]), [
      ["t1", "addressed"],
      ["t2", "open"],
    ]);
    // A malformed thread or status never reaches the store: the command's schema refuses it
    // (protocol/review_test.ts).
    equal(await store.setStatus("p", "feat/x", "t2", "resolved"), true);
    equal(await store.setStatus("p", "feat/x", "nope", "resolved"), false);
    const t2 = (await store.readThreads("p", "feat/x")) as { value: ReviewThread[] };
    deepStrictEqual([t2.value[1].status, t2.value[1].updated_at], ["resolved", NOW.toISOString()]);
    equal(await store.remove("p", "feat/x", "t1"), true);
    equal(await store.remove("p", "feat/x", "t1"), false);
    await store.save("p", "feat/x", [await thread("s1"), await thread("s2")]);
    const saved = (await store.readThreads("p", "feat/x")) as { value: ReviewThread[] };
    deepStrictEqual(saved.value.map((t) => t.id), ["s1", "s2"]);
    // Another branch and another project are other scopes.
    deepStrictEqual(await store.readThreads("p", "main"), { outcome: "read", value: [] });
    deepStrictEqual(await store.readThreads("q", "feat/x"), { outcome: "read", value: [] });
    deepStrictEqual(leftovers(store.dirOf("p", "feat/x")), []);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("threads: submit_review seals the listed threads' unfiled user turns into a numbered round", async () => {
  const dir = await tempDir();
  try {
    const store = new ThreadStore(new StateKeeper(memoryLogger()), dir, () => NOW);
    await store.upsert("p", "b", await thread("a"));
    await store.upsert("p", "b", await thread("b"));
    const r1 = await store.submitReview("p", "b", "two nits", ["a", "ghost"]);
    ok(r1);
    deepStrictEqual({ ...r1, id: "" }, {
      id: "",
      number: 1,
      summary: "two nits",
      created_at: NOW.toISOString(),
    });
    match(r1.id, /^review-[0-9a-f-]{36}$/);
    const after = (await store.readThreads("p", "b")) as { value: ReviewThread[] };
    deepStrictEqual(after.value[0].comments.map((c) => c.review_id), [r1.id, null]); // the agent turn stays unfiled
    deepStrictEqual(after.value[1].comments.map((c) => c.review_id), [null, null]);
    const r2 = await store.submitReview("p", "b", null, ["a", "b"]);
    ok(r2);
    equal(r2.number, 2);
    const again = (await store.readThreads("p", "b")) as { value: ReviewThread[] };
    equal(again.value[0].comments[0].review_id, r1.id); // already filed turns keep their round
    equal(again.value[1].comments[0].review_id, r2.id);
    deepStrictEqual(await store.readReviews("p", "b"), { outcome: "read", value: [r1, r2] });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("threads: an unreadable store is failed, never empty, and is never overwritten", async () => {
  const dir = await tempDir();
  try {
    const store = new ThreadStore(new StateKeeper(memoryLogger()), dir, () => NOW);
    await store.upsert("p", "b", await thread("a"));
    const file = `${store.dirOf("p", "b")}/threads.json`;
    await Deno.writeTextFile(file, "{ not json");
    const scope = await store.readScope("p", "b");
    equal(scope.threads.outcome, "failed");
    match(scope.threads.value as string, /threads\.json did not parse \(it is not whole JSON\)/);
    match(scope.threads.value as string, /changes nothing in the review threads of p@b until/);
    deepStrictEqual(scope.reviews, { outcome: "read", value: [] }); // read separately
    equal(await store.upsert("p", "b", await thread("z")), false);
    await rejects(() => store.remove("p", "b", "a"), /did not parse/);
    await rejects(() => store.setStatus("p", "b", "a", "resolved"), /did not parse/);
    await rejects(() => store.save("p", "b", []), /did not parse/);
    equal(await store.submitReview("p", "b", null, ["a"]), null);
    equal(await Deno.readTextFile(file), "{ not json");
    // The damaged file is kept aside, byte for byte, once however often it is read.
    const asides = [...Deno.readDirSync(store.dirOf("p", "b"))].filter((e) =>
      e.name.startsWith("threads.json.corrupt-")
    );
    equal(asides.length, 1);
    equal(await Deno.readTextFile(`${store.dirOf("p", "b")}/${asides[0].name}`), "{ not json");
    deepStrictEqual(await store.readReviews("p", "b"), { outcome: "read", value: [] });

    // Valid JSON of the wrong shape is unreadable too; so is a directory where the file should be.
    await Deno.writeTextFile(file, JSON.stringify({ threads: [{ id: 1 }] }));
    const shape = await store.readThreads("p", "b");
    equal(shape.outcome, "failed");
    match(
      shape.value as string,
      /threads\.json did not parse \(its content is not a review thread list \(at threads\.0\.id\)\)/,
    );
    await Deno.mkdir(`${store.dirOf("p", "b")}/reviews.json`);
    const reviews = await store.readReviews("p", "b");
    equal(reviews.outcome, "failed");
    match(reviews.value as string, /reviews\.json did not parse \(it is a directory\)/);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("threads: concurrent writes serialise; hostile names stay inside the state dir", async () => {
  const dir = await tempDir();
  try {
    const store = new ThreadStore(new StateKeeper(memoryLogger()), `${dir}/state`, () => NOW);
    const ids = [...Array(20)].map((_, i) => `t${i}`);
    const results = await Promise.all(
      ids.map(async (id) => store.upsert("p", "b", await thread(id))),
    );
    deepStrictEqual(results, ids.map(() => true));
    const all = (await store.readThreads("p", "b")) as { value: ReviewThread[] };
    deepStrictEqual(all.value.map((t) => t.id).sort(), [...ids].sort());
    deepStrictEqual(leftovers(store.dirOf("p", "b")), []);

    equal(await store.upsert("..", "../../escape", await thread("x")), true);
    const real = await Deno.realPath(store.dirOf("..", "../../escape"));
    ok(real.startsWith(await Deno.realPath(`${dir}/state/reviews/`)), real);
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["state"]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("hash: content_hash is decimal digits of SHA-256's first 64 bits", async () => {
  // sha256("abc") = ba7816bf8f01cfea...
  equal(await contentHash("abc"), BigInt("0xba7816bf8f01cfea").toString());
  equal(await contentHash(new Uint8Array()), BigInt("0xe3b0c44298fc1c14").toString());
  match(await contentHash("x"), /^\d+$/);
});

Deno.test("threads: a new round is numbered one past the highest, never a number twice", async () => {
  const dir = await tempDir();
  try {
    const store = new ThreadStore(new StateKeeper(memoryLogger()), dir, () => NOW);
    await store.upsert("p", "b", await thread("a"));
    const first = (await store.submitReview("p", "b", null, ["a"]))!;
    // A round dropped from the file by hand: rounds 1 and 3 remain.
    const third = { ...first, id: "review-third", number: 3 };
    await Deno.writeTextFile(
      `${store.dirOf("p", "b")}/reviews.json`,
      JSON.stringify({ reviews: [first, third] }),
    );
    equal((await store.submitReview("p", "b", null, []))!.number, 4);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("threads: a save on a branch nobody read since boot reads the file first, and refuses a broken one", async () => {
  const dir = await tempDir();
  try {
    const log = memoryLogger();
    const store = new ThreadStore(new StateKeeper(log), dir, () => NOW);
    const file = `${store.dirOf("p", "feat")}/threads.json`;
    await Deno.mkdir(store.dirOf("p", "feat"), { recursive: true });
    await Deno.writeTextFile(file, '{"threads": [ {"id": "t1", "BROKEN');
    await rejects(() => store.save("p", "feat", []), /threads\.json did not parse/);
    equal(await Deno.readTextFile(file), '{"threads": [ {"id": "t1", "BROKEN');
    equal(log.records.filter((r) => r.event === "state_file_damaged").length, 1);
    // Whole, it is replaced as the save says.
    await Deno.writeTextFile(file, JSON.stringify({ threads: [await thread("a")] }));
    await store.save("p", "feat", []);
    deepStrictEqual(await store.readThreads("p", "feat"), { outcome: "read", value: [] });
  } finally {
    await cleanup(dir);
  }
});
