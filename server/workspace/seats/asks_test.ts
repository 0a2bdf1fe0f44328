// How a can_use_tool becomes parked asks and how answers become the CLI's decision, as
// the original handles the CLI's inbound control requests.
// spec: subscribe > answering (nothing answers for a person); session > pending_asks.
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import { seatUpdate, type SessionUpdate } from "../../../protocol/mod.ts";
import { Refusal } from "../../subsystem.ts";
import type { CanUseToolRequest, JsonObject, PermissionDecision } from "../claude/mod.ts";
import { AskBook } from "./asks.ts";

const key = { org: "Acme", project: "proj", label: "lead" };

function book() {
  const emitted: SessionUpdate[] = [];
  let seq = 0;
  const asks = new AskBook(key, {
    emit: (name, fields) => emitted.push(seatUpdate(key, name, fields)),
    nextSeq: () => ++seq,
  });
  return { asks, emitted };
}

function bash(
  id: string,
  input: JsonObject = { command: "touch x", description: "make x" },
): CanUseToolRequest {
  return {
    request_id: `req-${id}`,
    tool_name: "Bash",
    tool_use_id: id,
    input,
    raw: {
      subtype: "can_use_tool",
      tool_name: "Bash",
      input,
      tool_use_id: id,
      description: "make x",
      permission_suggestions: [{
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "touch x" }],
        behavior: "allow",
        destination: "localSettings",
      }],
    },
  };
}

function refusal(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    assert(err instanceof Refusal);
    assertEquals([err.what, err.seat], ["dispatch", key]);
    return err.message;
  }
  throw new Error("expected a refusal");
}

Deno.test("a permission ask parks until answered: options, allow, and the ask announced both ways", async () => {
  const { asks, emitted } = book();
  const decision = asks.park(bash("t1"), new AbortController().signal);
  assertEquals(asks.list().map((a) => [a.kind, a.tool_id, a.seq]), [["permission", "t1", 1]]);
  const first = emitted[0];
  assert(first.name === "permission_request", "the ask is announced as a permission_request");
  const request = first.fields.request;
  assertEquals(request.options.map((o) => o.option_id), [
    "allow_once",
    "allow_always_0",
    "allow_with_edits",
    "deny",
    "tell_claude",
  ]);
  assertEquals(request.tool_call.kind, "execute");
  assertEquals(request.tool_call.title, "Bash: touch x");
  asks.answerPermission("t1", {
    outcome: "selected",
    option_id: "allow_once",
    action: { kind: "allow" },
  });
  assertEquals(await decision, {
    behavior: "allow",
    updatedInput: { command: "touch x", description: "make x" },
  });
  assertEquals(emitted.at(-1), {
    name: "pending_interaction_resolved",
    fields: { key, tool_id: "t1", question_index: null },
  });
  assertEquals(asks.size, 0);
  assertMatch(
    refusal(() => asks.answerPermission("t1", { outcome: "cancelled" })),
    /^respond_permission: Acme\/proj\/lead: no permission ask t1 is waiting/,
  );
});

Deno.test("permission outcomes: always (updates), edited input, deny with notes, cancelled", async () => {
  const { asks } = book();
  const answers: PermissionDecision[] = [];
  const run = async (id: string, answer: (id: string) => void) => {
    const p = asks.park(bash(id), new AbortController().signal);
    answer(id);
    answers.push(await p);
  };
  const rule = {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "touch x" }],
    behavior: "allow",
    destination: "localSettings",
  };
  await run(
    "a",
    (id) =>
      asks.answerPermission(id, {
        outcome: "selected",
        option_id: "allow_always_0",
        action: { kind: "allow_with_updates", updates: [rule] },
      }),
  );
  await run(
    "b",
    (id) =>
      asks.answerPermission(id, {
        outcome: "selected",
        option_id: "allow_with_edits",
        action: { kind: "allow_with_input" },
        edited_input: { command: "touch y" },
      }),
  );
  await run(
    "c",
    (id) =>
      asks.answerPermission(id, {
        outcome: "selected",
        option_id: "tell_claude",
        action: { kind: "deny" },
        notes_text: "use y",
      }),
  );
  await run("d", (id) => asks.answerPermission(id, { outcome: "cancelled" }));
  assertEquals(answers, [
    {
      behavior: "allow",
      updatedInput: { command: "touch x", description: "make x" },
      updatedPermissions: [rule],
    },
    { behavior: "allow", updatedInput: { command: "touch y" } },
    { behavior: "deny", message: "use y" },
    { behavior: "deny", message: "The user denied this tool use." },
  ]);
  asks.park(bash("e"), new AbortController().signal);
  assertMatch(
    refusal(() =>
      asks.answerPermission("e", {
        outcome: "selected",
        option_id: "nope",
        action: { kind: "allow" },
      })
    ),
    /e offers no option `nope`/,
  );
  assertMatch(
    refusal(() =>
      asks.answerPermission("e", {
        outcome: "selected",
        option_id: "allow_with_edits",
        action: { kind: "allow_with_input" },
      })
    ),
    /needs edited_input/,
  );
  assertEquals(asks.size, 1, "a refused answer leaves the ask waiting");
});

Deno.test("the CLI withdrawing a request (interrupt) drops the ask; nothing answers it", async () => {
  const { asks, emitted } = book();
  const abort = new AbortController();
  const decision = asks.park(bash("t1"), abort.signal);
  abort.abort();
  let rejected = "";
  await decision.catch((err) => rejected = err.message);
  assertEquals(rejected, "the CLI withdrew the request");
  assertEquals(asks.size, 0);
  assertEquals(emitted.at(-1)?.name, "pending_interaction_resolved");
  const again = asks.park(bash("t2"), new AbortController().signal);
  asks.clear("the CLI process ended");
  await again.catch((err) => rejected = err.message);
  assertEquals(rejected, "the CLI process ended");
});

Deno.test("a duplicate tool_use_id resolves the earlier waiter as a denial", async () => {
  const { asks } = book();
  const first = asks.park(bash("t1"), new AbortController().signal);
  asks.park(bash("t1"), new AbortController().signal);
  assertEquals((await first).behavior, "deny");
  assertEquals(asks.size, 1);
});

Deno.test("AskUserQuestion: one ask per question, front first; answers keyed by question text", async () => {
  const { asks, emitted } = book();
  const input: JsonObject = {
    questions: [
      {
        question: "Colour?",
        header: "C",
        multiSelect: false,
        options: [{ label: "Red", description: "r" }, {
          label: "Blue",
          description: "b",
          preview: "<b/>",
        }],
      },
      {
        question: "Sizes?",
        header: "S",
        multiSelect: true,
        options: [{ label: "S", description: "" }, { label: "L", description: "" }],
      },
      {
        question: "Name?",
        header: "N",
        multiSelect: false,
        options: [{ label: "A", description: "" }, { label: "B", description: "" }],
      },
    ],
  };
  const req = {
    ...bash("q"),
    tool_name: "AskUserQuestion",
    input,
    raw: { tool_name: "AskUserQuestion", input, tool_use_id: "q" },
  };
  const decision = asks.park(req, new AbortController().signal);
  assertEquals(
    emitted.map((
      e,
    ) => [e.name, e.name === "question_request" ? e.fields.request.question_index : null]),
    [
      ["question_request", 0],
      ["question_request", 1],
      ["question_request", 2],
    ],
  );
  assertEquals(asks.list().map((a) => a.seq), [1, 2, 3]);
  assertMatch(
    refusal(() =>
      asks.answerQuestion("q", { outcome: "answered", selected_option_ids: ["opt_0", "opt_1"] })
    ),
    /question 0 takes one option/,
  );
  assertMatch(
    refusal(() => asks.answerQuestion("q", { outcome: "answered", selected_option_ids: [] })),
    /choose an option or write notes/,
  );
  asks.answerQuestion("q", { outcome: "answered", selected_option_ids: ["opt_1"] });
  asks.answerQuestion("q", {
    outcome: "answered",
    selected_option_ids: ["opt_0", "opt_1"],
    annotation: { notes: "both" },
  });
  assertEquals(asks.size, 1);
  asks.answerQuestion("q", {
    outcome: "answered",
    selected_option_ids: [],
    annotation: { notes: "Carol" },
  });
  assertEquals(await decision, {
    behavior: "allow",
    updatedInput: {
      ...input,
      answers: { "Colour?": "Blue", "Sizes?": "S, L", "Name?": "Carol" },
      annotations: {
        "Colour?": { preview: "<b/>" },
        "Sizes?": { notes: "both" },
        "Name?": { notes: "Carol" },
      },
    },
  });
  assertEquals(
    emitted.map((e) => e.name === "pending_interaction_resolved" ? e.fields.question_index : -1)
      .filter((i) => i !== -1),
    [0, 1, 2],
  );
});

Deno.test("a cancelled question denies the call and drops every question of it", async () => {
  const { asks } = book();
  const input = {
    questions: [{ question: "A?", header: "A", multiSelect: false, options: [] }, {
      question: "B?",
      header: "B",
      multiSelect: false,
      options: [],
    }],
  };
  const decision = asks.park(
    { ...bash("q"), tool_name: "AskUserQuestion", input },
    new AbortController().signal,
  );
  asks.answerQuestion("q", { outcome: "cancelled" });
  assertEquals(await decision, { behavior: "deny", message: "The user declined to answer." });
  assertEquals(asks.size, 0);
  assertMatch(
    refusal(() => asks.answerPermission("q", { outcome: "cancelled" })),
    /no permission ask q is waiting/,
  );
});
