// spec: What a subject carries > session, `pr, closes` - "a record read never waits on it - a
// cache past its refetch window is served as it stands and the seat's own watch looks it up on
// its next pass, pushing the corrected row as work_changed." A seat with a session: the record
// read serves the empty cache, then the watch's pass asks gh (a stand-in answering gh's JSON)
// and pushes the PR; inside the refetch window a read starts no lookup.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import type { SessionUpdate } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host } from "../../server/subsystem.ts";
import {
  cleanup,
  commitAll,
  fakeGh,
  g,
  initRepo,
  tempDir,
  write,
} from "../../tests/review_support.ts";
import { until } from "../../tests/harness.ts";
import { BaseStore } from "./base.ts";
import { PrLookup } from "./pr.ts";
import { SeatWatch } from "./watch.ts";

Deno.test("watch: a seat with a session gets its PR from the watch's pass, not the read", async () => {
  const dir = await tempDir();
  const tree = await initRepo(`${dir}/tree`);
  await write(`${tree}/README`, "hello\n");
  await commitAll(tree, "first");
  await g(tree, "checkout", "-q", "-b", "feature");
  const { gh, calls } = await fakeGh(dir);
  await Deno.writeTextFile(`${dir}/signed_in`, "");
  await Deno.writeTextFile(`${dir}/has_pr`, "");
  const updates: SessionUpdate[] = [];
  const host = { log: memoryLogger(), emit: (u: SessionUpdate) => updates.push(u) };
  const watch = new SeatWatch({ org: "Acme", project: "p", label: "lead" }, tree, {
    host: host as unknown as Host,
    baseStore: new BaseStore(),
    pr: new PrLookup({ gh, refetchMs: 60_000 }),
    hasSession: () => true,
  });
  try {
    // The record read, as sessionFields makes it: the cache as it stands, no gh call waited on.
    const record = await watch.record(false);
    const rows = await watch.rows(record.work, record.git);
    deepStrictEqual({ pr: rows.pr, closes: rows.closes }, { pr: null, closes: [] });
    watch.held(rows);
    watch.refreshPr(record.work.branch ?? null);
    const pushes = () => updates.filter((u) => u.name === "work_changed");
    await until(() => pushes().length > 0, 10_000, "the watch pushing work_changed");
    const pushed = pushes();
    equal(pushed.length, 1);
    // One lookup: the availability probe, the PR and its closing issues.
    deepStrictEqual(calls().map((c) => c.split(" ").slice(0, 2).join(" ")), [
      "--version",
      "auth status",
      "pr list",
      "pr view",
    ]);
    const fields = pushed[0].fields as { pr: unknown; closes: unknown };
    deepStrictEqual(fields.pr, {
      number: 42,
      url: "https://example.invalid/o/r/pull/42",
      is_draft: true,
    });
    deepStrictEqual(fields.closes, [{ number: 7, url: "https://example.invalid/o/r/issues/7" }]);
    // Inside the refetch window a read serves the cache and asks gh nothing more.
    const asked = calls().length;
    const again = await watch.rows(record.work, record.git);
    equal(again.pr?.number, 42);
    watch.refreshPr(record.work.branch ?? null);
    await watch.pass();
    equal(calls().length, asked);
  } finally {
    watch.stop();
    await cleanup(dir);
  }
});
