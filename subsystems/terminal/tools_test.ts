// The terminal family: run and read the seat's own terminal, send keys, hand it off (a
// terminal_hand_off ask; the summary's `held` says so); spec: terminal_control - while a person
// holds the control, or a hand-off is parked, every tool is refused with a sentence saying why.
import { z } from "zod";
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import type { SessionUpdate } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host, Peer, ToolCall, ToolHandler } from "../../server/subsystem.ts";
import { HeldAskRegistry } from "../../server/workspace/seats/held.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { TerminalManager, type TerminalSummary } from "./manager.ts";
import { testEnv, waitFor, withTempHome } from "../../tests/terminal_support.ts";
import { plain, TERMINAL_TOOLS, terminalTools } from "./tools.ts";

const slot = { org: "acme", project: "web", label: "lead" };
const answering = { answering: true } as Peer;

function call(cwd: string, signal = new AbortController().signal): ToolCall {
  const seat: SeatInfo = { slot, project: {} as SeatInfo["project"], cwd, sessionId: () => null };
  return { seat, role: "lead", toolUseId: null, signal };
}

/** Runs a tool as the bridge would: the declared schema first, then the handler. */
function run(tools: Record<string, ToolHandler>, name: string, input: unknown, c: ToolCall) {
  const spec = TERMINAL_TOOLS.find((t) => t.name === name)!;
  return tools[name]((spec.input as z.ZodType).parse(input), c);
}

Deno.test("terminal tools: run, read, keys; refused under a person's control; a hand-off parks and holds", async () => {
  await withTempHome(async (home) => {
    const told: (TerminalSummary | null)[] = [];
    const manager = new TerminalManager({
      onChange: (_seat, summary) => told.push(summary),
      terminal: { shell: "/bin/bash", env: testEnv(home), pollMs: 50 },
    });
    const emitted: SessionUpdate[] = [];
    const held = new HeldAskRegistry((u) => emitted.push(u));
    const host = { asks: held, log: memoryLogger() } as unknown as Host;
    const tools = terminalTools(host, manager);
    try {
      const ran = await run(
        tools,
        "terminal__run",
        { command: "echo t-$((3*4))", settle_ms: 300 },
        call(home),
      );
      assertMatch(ran.text, /t-12/);
      assert(!ran.text.includes("\x1b"), "no escape sequences reach the agent");
      const screen = await run(tools, "terminal__read", {}, call(home));
      assertMatch(screen.text, /t-12/);
      await run(tools, "terminal__send_keys", { keys: "echo k-$((5+5))\r" }, call(home));
      await waitFor(
        "the keys' echo",
        async () => /k-10/.test((await run(tools, "terminal__read", {}, call(home))).text),
      );

      // A person takes control: every tool is refused, naming why.
      const t = manager.get(`${slot.org}/${slot.project}/${slot.label}`)!;
      const viewer = t.viewers.attach({
        sendJson: () => {},
        sendBinary: () => {},
        buffered: () => 0,
      });
      t.viewers.control(viewer, true);
      const refused = await run(tools, "terminal__run", { command: "echo no" }, call(home));
      assertEquals(refused.isError, true);
      assertMatch(refused.text, /terminal__run: a person holds this terminal's control/);
      t.viewers.control(viewer, false);

      // A hand-off parks, marks the terminal held, refuses the other tools, ends when answered.
      const handing = run(tools, "terminal__hand_off", { reason: "type the password" }, call(home));
      const card = await waitFor("the parked hand-off", () => held.list(slot)[0]);
      assertEquals(
        [card.kind, "reason" in card.request ? card.request.reason : null],
        ["terminal_hand_off", "type the password"],
      );
      assertEquals(told.at(-1)?.held, true);
      const blocked = await run(tools, "terminal__read", {}, call(home));
      assertMatch(blocked.text, /terminal__read: a hand-off holds this terminal/);
      held.answer(slot, "terminal_hand_off", card.id, answering, {
        ending: "answered",
        answer: true,
      });
      const done = await handing;
      assertMatch(done.text, /^The person is done in the terminal\. Its screen now:\n/);
      assertEquals(told.at(-1)?.held, false);
      assertEquals(emitted.map((u) => u.name), [
        "terminal_hand_off_pending",
        "terminal_hand_off_resolved",
      ]);
    } finally {
      await manager.closeAll();
    }
  });
});

Deno.test("plain: escape sequences and carriage returns are dropped", () => {
  assertEquals(plain("\x1b]0;title\x07\x1b[1;32mok\x1b[0m\r\nnext\r"), "ok\nnext");
});
