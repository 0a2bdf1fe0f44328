// slack__attachment (the original forge's `slack` tools) against the Slack fake: a fetch is not
// held, lands under a sanitised name and never overwrites; an upload waits for a person and,
// approved, is shared.
import { startFakeSlack } from "../../fixtures/slack/mod.ts";
import type { Host, Peer, ToolCall } from "../../server/subsystem.ts";
import { HeldAskRegistry } from "../../server/workspace/seats/held.ts";
import { assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import type { Connectors } from "./context.ts";
import { safeName, slackFileTools } from "./slack_files.ts";
import { quietHub } from "../../tests/connectors_support.ts";

Deno.test("safeName: one path component, no leading dots", () => {
  assertEquals(safeName("../../etc/passwd"), "passwd");
  assertEquals(safeName("..hidden"), "hidden");
  assertEquals(safeName("a<b>.txt"), "a_b_.txt");
  assertEquals(safeName(""), "attachment");
});

Deno.test("slack__attachment: fetch never overwrites; an upload is held, then shared", async () => {
  const fake = await startFakeSlack();
  const dir = await Deno.makeTempDir({ prefix: "forge-slack-files-" });
  const hub = quietHub(fake, dir);
  // A person approves the first upload as it parks and declines the second, through the real
  // registry: an approved upload resolves only once the file is shared.
  const answers: boolean[] = [true, false];
  const parked: unknown[] = [];
  const person = { answering: true } as Peer;
  const asks: HeldAskRegistry = new HeldAskRegistry((u) => {
    if (u.name !== "slack_post_pending") return;
    const draft = u.fields!.draft as { id: string };
    parked.push(draft);
    const reply = answers.shift()
      ? { ending: "answered" as const, answer: { approved: true } }
      : { ending: "declined" as const };
    queueMicrotask(() =>
      asks.answer(u.fields!.key!, "slack_post", String(draft.id), person, reply)
    );
  });
  const host = { asks } as unknown as Host;
  const tool =
    slackFileTools({ host, slack: hub } as unknown as Connectors, 1000).slack__attachment;
  const call = {
    seat: { slot: { org: "Acme", project: "alpha", label: "lead" }, cwd: dir },
    signal: new AbortController().signal,
  } as unknown as ToolCall;
  try {
    const id = await fake.file("../report.txt", "quarterly numbers");
    await assertRejects(() => tool({ file_id: id, dir: "in" }, call), /could not write into in/);
    await Deno.mkdir(`${dir}/in`);
    const one = await tool({ file_id: id, dir: "in" }, call);
    assertEquals(one.text, `fetched to ${dir}/in/report.txt`);
    const two = await tool({ file_id: id, dir: `${dir}/in` }, call);
    assertEquals(two.text, `fetched to ${dir}/in/report (2).txt`);
    assertEquals(await Deno.readTextFile(`${dir}/in/report.txt`), "quarterly numbers");
    assertEquals(parked.length, 0, "a fetch is not held");

    await Deno.writeTextFile(`${dir}/notes.txt`, "meeting notes");
    const up = await tool({ path: "notes.txt", conversation: "C0GENERAL" }, call);
    assertEquals(up.text, "uploaded");
    assertMatch((parked[0] as { text: string }).text, /^\[file\] notes.txt\nfrom .*notes.txt$/);
    const shared = (await fake.files()).filter((f) => f.name === "notes.txt");
    assertEquals(shared.map((f) => [f.channel, f.content]), [["C0GENERAL", "meeting notes"]]);
    const no = await tool({ path: "notes.txt", conversation: "C0GENERAL" }, call);
    assertEquals(no.text, "not approved, so nothing was sent");
    assertEquals((await fake.files()).filter((f) => f.name === "notes.txt").length, 1);

    await assertRejects(() => tool({ file_id: "F0NOPE", dir }, call), /file_not_found/);
    await assertRejects(() => tool({ path: "x", file_id: "y" }, call), /give `file_id` and `dir`/);
  } finally {
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
