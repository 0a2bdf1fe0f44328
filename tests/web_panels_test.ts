import { assertEquals } from "./assert.ts";
import { command, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";
import { webWorld } from "./web_harness.ts";

// What the seat's page draws beside the conversation: the CLI's MCP servers, a dispatched
// subagent's card, a backgrounded call's own output read on its card while the job runs, and a
// Monitor's watch as a panel with its output on a press. spec: What a client sends >
// read_call_output; What a subject carries > session (mcp, subagent_instances, monitors).
// The real CLI on the fake Messages API: fixtures/monitor's watch beside fixtures/seats' job.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };
const SEATS = new URL("../fixtures/seats/script.json", import.meta.url).pathname;
const MONITOR = new URL("../fixtures/monitor/script.json", import.meta.url).pathname;
type Script = { replies?: unknown[]; named: Record<string, unknown[]> };

/**
 * The monitor script (its watch stopped by a file in the world) with the seats' bgshort job and
 * an Agent dispatch whose subagent answers from its own sequence.
 */
function script(dir: string): Script {
  const watch = JSON.parse(
    Deno.readTextFileSync(MONITOR).replaceAll("@STOP@", `${dir}/monitor.stop`),
  ) as Script;
  const seats = JSON.parse(Deno.readTextFileSync(SEATS)) as Script;
  const agent = {
    content: [{
      type: "tool_use",
      name: "Agent",
      input: {
        description: "sub job",
        prompt: "[[script:sub]] look around",
        subagent_type: "general-purpose",
      },
    }],
  };
  const text = (words: string) => ({ content: [{ type: "text", text: words }] });
  return {
    ...watch,
    // The turns no person starts (a finished agent's notice, the watch's tick) answer in words.
    replies: Array.from({ length: 8 }, () => text("noted")),
    named: {
      ...watch.named,
      bgshort: seats.named.bgshort,
      agent: [agent, text("dispatched")],
      sub: [text("nothing to see")],
    },
  };
}

Deno.test({
  name: "web: MCP servers, a subagent's card, a job's output on its card, a monitor's panel",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      script,
      config: "[browser]\nenabled = false\n",
    });
    const { page } = w;
    const c = await w.forge.ready();
    await subscribeSeat(c, ALPHA, true);
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });

    // The CLI's MCP servers, read when the seat is shown: forge's own, connected.
    // (Folded while every server is connected: present, not necessarily shown.)
    await page.getByTestId("mcp").getByTestId("mcp-forge").getByText("connected").waitFor({
      state: "attached",
      timeout: 60_000,
    });

    // A subagent dispatched: its card, running and then done, under its type.
    command(c, "prompt", { key: ALPHA, text: "[[script:agent]] send one", attachments: [] });
    const sub = page.getByTestId("subagents").getByTestId("subagent");
    // (The panel folds once nothing runs: present, not necessarily shown.)
    await sub.getByText("sub job").waitFor({ state: "attached", timeout: 60_000 });
    assertEquals(await sub.locator(".muted").first().textContent(), "general-purpose");
    await sub.locator(".chip", { hasText: /^done$/ }).waitFor({
      state: "attached",
      timeout: 60_000,
    });
    await w.shot("subagent-card");

    // A job in the background: its card has the door; a read while it runs holds its lines.
    command(c, "prompt", { key: ALPHA, text: "[[script:bgshort]] start it", attachments: [] });
    const card = page.locator("[data-testid=tool][data-tool=Bash]");
    const show = card.getByTestId("show-output");
    await show.waitFor({ timeout: 60_000 });
    const lines = card.getByTestId("output-lines");
    let read = "";
    // The job writes its two lines as it starts; each press waits for forge's answer.
    for (let i = 0; i < 50 && read !== "first\nsecond"; i++) {
      await show.click();
      await page.waitForFunction(
        "[...globalThis.forgeDebug.client.state.seat.panels.outputs.values()]" +
          ".every((o) => o.state !== 'asked')",
      );
      read = await lines.count() > 0 ? (await lines.textContent())! : "";
    }
    assertEquals(read, "first\nsecond");
    await w.shot("call-output");

    // A Monitor's watch: allowed by the test's connection, then a panel the page draws, whose
    // output is the watch's tick.
    command(c, "prompt", { key: ALPHA, text: "[[script:mon]] watch the ticks", attachments: [] });
    const asked = typedUpdateOf(
      await c.next((m) => {
        const u = updateOf(m, "permission_request");
        return u !== null && JSON.stringify(u).includes("Monitor");
      }, 60_000),
      "permission_request",
    )!;
    command(c, "respond_permission", {
      key: ALPHA,
      tool_id: asked.tool_id,
      outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
    });
    const monitor = page.getByTestId("monitors").getByTestId("monitor");
    await monitor.getByText("watch the ticks").waitFor({ timeout: 60_000 });
    const watched = monitor.getByTestId("output-lines");
    for (
      let i = 0;
      i < 50 && !(await watched.count() && (await watched.textContent()) === "tick 1");
      i++
    ) {
      await monitor.getByTestId("show-output").click();
      await page.waitForFunction(
        "[...globalThis.forgeDebug.client.state.seat.panels.outputs.values()]" +
          ".every((o) => o.state !== 'asked')",
      );
    }
    assertEquals(await watched.textContent(), "tick 1");
    await w.shot("monitor-panel");
    // The watch ends: its panel goes with it.
    await Deno.writeTextFile(`${w.world.dir}/monitor.stop`, "");
    await page.getByTestId("monitors").waitFor({ state: "detached", timeout: 60_000 });
  },
});
