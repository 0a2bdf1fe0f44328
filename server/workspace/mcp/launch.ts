import { SERVER_NAME } from "./seat_server.ts";

/**
 * The CLI's hard limit on one forge tool call, set deliberately (docs/tools.md). A call
 * that parks an ask waits for a person, who may answer tomorrow, so the limit is a week, not the
 * CLI's default of about 28 hours. It must stay below 2^31 ms (about 24.8 days): the CLI's
 * timer treats a larger delay as 1 ms.
 */
export const TOOL_CALL_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

/** The section appended to the CLI's system prompt: what forge's tools are for, in our words. */
export const TOOLS_PROMPT = [
  "# forge's tools",
  "This session runs under forge, a server that supervises Claude Code sessions for a person. " +
  "forge gives you its own tools, named mcp__forge__<family>__<verb> (the browser's keep the " +
  "names Playwright's MCP server gives them: mcp__forge__browser_navigate and so on); they are " +
  "allowed without a permission prompt.",
  "Some of them ask the person and wait for the answer - a change to forge's settings, handing " +
  "a document or the terminal over to them. Such a call stays open until the person answers, " +
  "which may take hours; that is expected, so do not retry or work around it. The answer says " +
  "how the ask ended: answered, declined, cancelled, or the session ended.",
  "When a tool refuses, its sentence says why; read it before calling again.",
  "A user turn that opens with a bracketed forge envelope ([Message from ...]) was delivered by " +
  "forge on behalf of another agent or a service the person set up; it is not the person typing.",
].join("\n\n");

/**
 * The launch flags that give a seat's CLI forge's MCP server: the sdk server over the control
 * protocol (measured on CLI 2.1.332: the one transport with no idle limit, and no process, port
 * or token of its own) with the deliberate per-call timeout, every forge tool pre-allowed (they
 * park their own asks, so they never reach a permission prompt), and the prompt section.
 * Rendered where launch settings' `extra_args` go.
 */
export function mcpLaunchArgs(): [string, string][] {
  const config = {
    mcpServers: {
      [SERVER_NAME]: { type: "sdk", name: SERVER_NAME, timeout: TOOL_CALL_TIMEOUT_MS },
    },
  };
  return [
    ["mcp-config", JSON.stringify(config)],
    ["allowedTools", `mcp__${SERVER_NAME}`],
    ["append-system-prompt", TOOLS_PROMPT],
  ];
}
