// spec: command > reply_to ("the three review writes"; a refusal of a reply command arrives in
// the reply). A review write for a project the config does not declare is refused naming it, and
// nothing is written: no store directory is made for the name.
import { deepStrictEqual, rejects } from "node:assert/strict";
import type { Command, ReviewThread, Slot } from "../../protocol/mod.ts";
import { Refusal } from "../../server/subsystem.ts";
import { create } from "./mod.ts";
import { reviewHost } from "../../tests/review_host.ts";
import { cleanup, exists, tempDir } from "../../tests/review_support.ts";

const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };
const THREAD: ReviewThread = {
  id: "t1",
  anchor: { path: "a.txt", side: "new", line: 1, content_hash: "1", context: [], base_ref: "main" },
  comments: [],
  status: "open",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  commit: null,
};

Deno.test("review writes: a project the config does not declare is refused by name, nothing written", async () => {
  const dir = await tempDir();
  const stateDir = `${dir}/state`;
  const { host } = reviewHost(SLOT, dir, stateDir, () => null, { projects: ["proj", "other"] });
  const sub = create(host);
  const scope = { project: "nope-zz", branch: "b1" };
  const commands: Command[] = [
    { name: "save_review_threads", fields: { ...scope, threads: [] } },
    { name: "remove_review_thread", fields: { ...scope, thread_id: "t1" } },
    { name: "set_review_thread_status", fields: { ...scope, thread_id: "t1", status: "resolved" } },
    { name: "upsert_review_thread", fields: { ...scope, thread: THREAD } },
    {
      name: "submit_review",
      fields: { ...scope, summary: null, thread_ids: ["t1"], origin: SLOT },
    },
  ];
  try {
    for (const c of commands) {
      const handler = (sub.commands as Record<string, (c: Command) => Promise<unknown>>)[c.name];
      await rejects(handler(c), (err: Error) => {
        deepStrictEqual(
          [err instanceof Refusal, err.message],
          [
            true,
            `${c.name}: no project is named \`nope-zz\`; the projects are \`proj\`, \`other\``,
          ],
        );
        return true;
      });
    }
    deepStrictEqual(await exists(`${stateDir}/reviews`), false, "no store was made");
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});
