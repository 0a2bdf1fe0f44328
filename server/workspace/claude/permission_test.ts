// can_use_tool reaches forge's handler; allow runs the tool with the (possibly edited) input, deny
// does not run it and the model sees the message.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { toolResults, toolResultText } from "../../../fixtures/fake_api/mod.ts";
import { startHarness } from "../../../tests/claude_support.ts";
import type { CanUseToolRequest, JsonObject, PermissionDecision } from "./types.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("can_use_tool: allow runs the Bash tool, deny does not and reports the message", async () => {
  await using h = await startHarness({
    named: {
      allow: [
        {
          content: [{
            type: "tool_use",
            name: "Bash",
            input: { command: "touch allowed.txt", description: "touch" },
          }],
        },
        { content: [{ type: "text", text: "made it" }] },
      ],
      deny: [
        {
          content: [{
            type: "tool_use",
            name: "Bash",
            input: { command: "touch denied.txt", description: "touch" },
          }],
        },
        { content: [{ type: "text", text: "could not" }] },
      ],
    },
  });
  const asked: CanUseToolRequest[] = [];
  const { proc, log } = h.spawn({
    canUseTool: (req): PermissionDecision => {
      asked.push(req);
      return String(req.input.command).includes("allowed")
        ? { behavior: "allow", updatedInput: req.input }
        : { behavior: "deny", message: "forge test says no" };
    },
  });

  proc.sendUserMessage("please [[script:allow]]");
  const first = await log.next("result");
  strictEqual(first.result, "made it");
  ok(await exists(`${h.cwd}/allowed.txt`), "the allowed command ran in the cwd");

  const mark = log.mark();
  proc.sendUserMessage("please [[script:deny]]");
  const second = await log.next("result", undefined, mark);
  strictEqual(second.result, "could not");
  ok(!(await exists(`${h.cwd}/denied.txt`)), "the denied command did not run");

  deepStrictEqual(asked.map((r) => [r.tool_name, r.input.command]), [
    ["Bash", "touch allowed.txt"],
    [
      "Bash",
      "touch denied.txt",
    ],
  ]);
  match(asked[0].tool_use_id, /^toolu_fake/);
  ok(
    Array.isArray(asked[0].raw.permission_suggestions),
    "raw request keeps permission_suggestions",
  );
  const denials = second.permission_denials as JsonObject[];
  deepStrictEqual(denials.map((d) => d.tool_name), ["Bash"]);

  // What came back to the model: the tool's output after allow, the deny message after deny.
  const mains = h.api.mainRequests();
  deepStrictEqual(mains.map((r) => r.reply), [
    "named:allow[0]",
    "named:allow[1]",
    "named:deny[0]",
    "named:deny[1]",
  ]);
  const [allowed] = toolResults(mains[1].body);
  strictEqual(allowed.is_error, false);
  const [denied] = toolResults(mains[3].body);
  deepStrictEqual([denied.is_error, toolResultText(denied)], [true, "forge test says no"]);
  deepStrictEqual((await proc.close()).code, 0);
});

Deno.test("can_use_tool: a throwing handler denies with the failure named; edited input is used", async () => {
  await using h = await startHarness({
    replies: [
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "touch one.txt", description: "t" },
        }],
      },
      { content: [{ type: "text", text: "after throw" }] },
      {
        content: [{
          type: "tool_use",
          name: "Bash",
          input: { command: "touch two.txt", description: "t" },
        }],
      },
      { content: [{ type: "text", text: "after edit" }] },
    ],
  });
  let calls = 0;
  const { proc, log } = h.spawn({
    canUseTool: (req) => {
      if (++calls === 1) throw new Error("decider offline");
      return { behavior: "allow", updatedInput: { ...req.input, command: "touch edited.txt" } };
    },
  });
  proc.sendUserMessage("one");
  await log.next("result");
  const mark = log.mark();
  proc.sendUserMessage("two");
  await log.next("result", undefined, mark);
  ok(!(await exists(`${h.cwd}/one.txt`)));
  ok(!(await exists(`${h.cwd}/two.txt`)), "the original input was replaced");
  ok(await exists(`${h.cwd}/edited.txt`), "the edited input ran");
  const [thrown] = toolResults(h.api.mainRequests()[1].body);
  match(toolResultText(thrown), /permission handler failed: decider offline/);
  await proc.close();
});
