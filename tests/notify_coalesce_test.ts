// Spawned tier: forge as a process with pushes on through the fake ntfy server, five seats each
// running the real claude CLI against the fake Messages API, scripted into four WebFetch calls
// in one message: the CLI parks their four permission asks at once, so 20 asks wait over the
// five seats together. docs/notify.md "Coalesced": at most one push per seat per coalesce_secs,
// carrying how many wait, so the burst is five pushes.
import type { PermissionOutcome, Slot } from "../protocol/mod.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import { ask, until } from "./harness.ts";
import { notifyWorld, TOPIC } from "./notify_harness.ts";
import { command, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";

const PROJECTS = ["p1", "p2", "p3", "p4", "p5"];
const fetch = (i: number) => ({
  type: "tool_use",
  name: "WebFetch",
  input: { url: `https://example${i}.invalid/`, prompt: "what does it say?" },
});
const NAMED = {
  fetch4: [{ content: [1, 2, 3, 4].map(fetch) }, { content: [{ type: "text", text: "read" }] }],
};
const DENY: PermissionOutcome = {
  outcome: "selected",
  option_id: "deny",
  action: { kind: "deny" },
};
const ASK_LINE = /^WebFetch: https:\/\/example[1-4]\.invalid\/( \(([2-4]) waiting\))?$/;

Deno.test("20 asks parked at once over 5 seats are 5 pushes, one per seat, counting its asks", async () => {
  // A window far longer than the test: whatever is not in a seat's first push waits for it.
  await using w = await notifyWorld({ named: NAMED, projects: PROJECTS, coalesceSecs: 600 });
  const forge = await w.world.startForge();
  const seats = PROJECTS.map((p) => w.world.lead(p));
  const c = await forge.ready();
  for (const seat of seats) await subscribeSeat(c, seat, true);
  for (const seat of seats) {
    command(c, "prompt", { key: seat, text: "[[script:fetch4]] read these", attachments: [] });
  }
  const asks: { key: Slot; tool_id: string }[] = [];
  while (asks.length < 20) {
    const m = await c.next((m) => updateOf(m, "permission_request") !== null, 90_000);
    asks.push(typedUpdateOf(m, "permission_request")!);
  }
  assertEquals(
    PROJECTS.map((p) => asks.filter((a) => a.key.project === p).length),
    [4, 4, 4, 4, 4],
    "the CLI parked each seat's four asks together",
  );
  await until(async () => (await w.ntfy.messages(TOPIC)).length >= 5, 30_000, "five pushes");

  // Every ask answered, nothing waits: no push can follow. A test push is the barrier behind
  // which every push forge started has been published.
  for (const a of asks) {
    command(c, "respond_permission", { key: a.key, tool_id: a.tool_id, outcome: DENY });
  }
  const finished = new Set<string>();
  while (finished.size < 5) {
    const m = await c.next((m) => {
      const msg = (updateOf(m, "chat_appended")?.msg ?? {}) as Record<string, unknown>;
      return msg.type === "result";
    }, 90_000);
    finished.add((updateOf(m, "chat_appended")!.key as Slot).project);
  }
  assertEquals(await ask(c, "notify_test", { channel: "ntfy" }), { ok: true, why: null });
  const pushes = (await w.ntfy.messages(TOPIC)).slice(0, -1);
  assertEquals(pushes.map((m) => m.title).sort(), PROJECTS.map((p) => `${p}/lead needs you`));
  // How many each counts depends on how many of its seat's four had parked within the half
  // second a first ask waits for the rest (notifier_test.ts counts them on a moved clock).
  for (const m of pushes) assertMatch(m.message, ASK_LINE);
});
