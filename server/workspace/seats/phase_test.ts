import { assertEquals } from "../../../tests/assert.ts";
import type { ClaudeExit } from "../claude/mod.ts";
import { exitMessage, failureOf, noSessionWhy } from "./phase.ts";

const idle = { phase: "live", startError: null, turnInFlight: false } as const;

Deno.test("an unasked exit says how it ended, when, and the last of its stderr", () => {
  const killed: ClaudeExit = { code: 137, signal: "SIGKILL", stderrTail: "" };
  assertEquals(exitMessage(killed, idle), "claude exited (code 137, signal SIGKILL) while idle");
  const crashed: ClaudeExit = { code: 1, signal: null, stderrTail: `${"x".repeat(600)}END\n` };
  const midTurn = exitMessage(crashed, { ...idle, turnInFlight: true });
  assertEquals(midTurn, `claude exited (code 1) mid-turn; stderr: ${"x".repeat(497)}END`);
  const silent = {
    phase: "spawning",
    startError: "it did not answer initialize",
    turnInFlight: false,
  } as const;
  assertEquals(
    exitMessage(killed, silent),
    "claude exited (code 137, signal SIGKILL) before it was ready (it did not answer initialize)",
  );
});

Deno.test("a failure carries its exit, or none when the CLI never ran", () => {
  const exit: ClaudeExit = { code: 2, signal: null, stderrTail: "boom" };
  assertEquals(failureOf("gone", exit), {
    message: "gone",
    code: 2,
    signal: null,
    stderr_tail: "boom",
  });
  assertEquals(failureOf("never ran", null), {
    message: "never ran",
    code: null,
    signal: null,
    stderr_tail: "",
  });
});

Deno.test("a seat with no session says why in its phase's words", () => {
  const failure = failureOf("claude exited (code 1) while idle", null);
  assertEquals(noSessionWhy("failed", failure), "it failed: claude exited (code 1) while idle");
  assertEquals(noSessionWhy("releasing", null), "it is being released");
  assertEquals(noSessionWhy("sleeping", null), "nothing occupies it");
});
