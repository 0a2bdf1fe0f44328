// slack__post's parts and a partial post's words (the original forge's `slack` tools: text over
// 4,000 characters goes as numbered parts; "posted part X of Y; the rest were NOT sent"), against
// the Slack fake; the draft resolves once the send ran, with its failure in words.
import { startFakeSlack } from "../../fixtures/slack/mod.ts";
import { fieldsOf, type SessionUpdate } from "../../protocol/mod.ts";
import type { Host, Peer, ToolCall } from "../../server/subsystem.ts";
import { HeldAskRegistry } from "../../server/workspace/seats/held.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import type { Connectors } from "./context.ts";
import { quietHub } from "../../tests/connectors_support.ts";
import { slackWriteTools, splitParts } from "./slack_post.ts";

Deno.test("splitParts: one part up to 4,000 characters; beyond, numbered parts that each fit", () => {
  assertEquals(splitParts("short"), ["short"]);
  assertEquals(splitParts("x".repeat(4000)), ["x".repeat(4000)]);
  const words = Array.from({ length: 1500 }, (_, i) => `w${i}`).join(" ");
  const parts = splitParts(words);
  assert(parts.length >= 2 && parts.every((p) => p.length <= 4000), "each part fits");
  assertEquals(
    parts.map((p, i) => p.startsWith(`(${i + 1}/${parts.length}) `)),
    parts.map(() => true),
  );
  assertEquals(parts.map((p) => p.replace(/^\(\d+\/\d+\) /, "")).join(""), words, "nothing lost");
  assert(parts.slice(0, -1).every((p) => p.endsWith(" ")), "broken between words");
});

Deno.test("slack__post: a part that fails midway says which parts were not sent", async () => {
  const fake = await startFakeSlack();
  const dir = await Deno.makeTempDir({ prefix: "forge-slack-" });
  const hub = quietHub(fake, dir);
  // A person approves every draft as it parks: the part this test is about is what follows.
  const resolved: SessionUpdate[] = [];
  const person = { answering: true } as Peer;
  const asks: HeldAskRegistry = new HeldAskRegistry((u) => {
    if (u.name === "slack_post_pending") {
      queueMicrotask(() =>
        asks.answer(
          u.fields!.key!,
          "slack_post",
          String((u.fields!.draft as { id: string }).id),
          person,
          {
            ending: "answered",
            answer: { approved: true },
          },
        )
      );
    }
    if (u.name === "slack_draft_resolved") resolved.push(u);
  });
  const host = { asks } as unknown as Host;
  const tools = slackWriteTools({ host, slack: hub } as unknown as Connectors, 1000);
  const call = {
    seat: { slot: { org: "Acme", project: "alpha", label: "lead" } },
    signal: new AbortController().signal,
  } as unknown as ToolCall;
  try {
    await fake.failAfter("chat.postMessage", 1, "is_archived");
    const text = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(" ");
    const out = await tools.slack__post({ conversation: "C0GENERAL", text }, call);
    assertEquals(out, {
      text: "posted part 1 of 3; the rest were NOT sent (parts 2, 3): " +
        "Slack (acme) refused chat.postMessage: is_archived",
      isError: true,
    });
    // The draft resolved after the send ran, naming what failed.
    assertEquals(resolved.map((u) => fieldsOf(u, "slack_draft_resolved")?.failure), [out.text]);
    const posts = (await fake.calls()).filter((c) => c.method === "chat.postMessage");
    assertEquals(posts.length, 2, "the failed second part was the last tried");
  } finally {
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
