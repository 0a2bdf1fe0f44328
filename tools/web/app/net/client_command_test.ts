import { assertEquals } from "../../../../tests/assert.ts";
import { ManualClock } from "../../../../tests/manual_clock.ts";
import { decodeCommand } from "../../../../protocol/mod.ts";
import { ForgeClient } from "./client.ts";

// The page builds every command against protocol/'s COMMANDS: a misspelt name or a wrong field
// does not compile. Each `@ts-expect-error` below keeps `deno check` green only while its line
// fails to type-check, so the day `command` loosens to a free string this file fails.
const key = { org: "o", project: "p", label: "lead" };

/** A socket server that keeps every client message it is sent. */
async function listening() {
  const got: unknown[] = [];
  const ready = Promise.withResolvers<void>();
  let arrived = Promise.withResolvers<void>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => ready.resolve();
    socket.onmessage = (e) => {
      got.push(JSON.parse(e.data));
      arrived.resolve();
    };
    return response;
  });
  const c = new ForgeClient(`ws://127.0.0.1:${server.addr.port}/socket`, new ManualClock());
  c.start();
  await ready.promise;
  while (c.state.link !== "open") await new Promise<void>((r) => c.store.listen(r));
  const commands = async (n: number) => {
    while (got.filter((m) => isCommand(m)).length < n) {
      await arrived.promise;
      arrived = Promise.withResolvers<void>();
    }
    return got.filter(isCommand).map((m) => m.command);
  };
  const stop = async () => {
    c.link.stop();
    await server.shutdown();
  };
  return { c, commands, stop };
}

function isCommand(m: unknown): m is { kind: "command"; command: unknown } {
  return typeof m === "object" && m !== null && "kind" in m && m.kind === "command";
}

Deno.test("client: typed commands cross as protocol/ decodes them", async () => {
  const { c, commands, stop } = await listening();
  c.command("prompt", { key, text: "hi", attachments: [] });
  c.command("plugin_update_all", null);
  c.command("task_rank", { project: "p", id: "t1", to: "top" });
  const sent = await commands(3);
  assertEquals(sent.map((raw) => decodeCommand(raw).name), [
    "prompt",
    "plugin_update_all",
    "task_rank",
  ]);
  assertEquals(sent[1], "plugin_update_all");
  await stop();
});

Deno.test("client: a command built at run time off its schema is said and not sent", async () => {
  const { c, commands, stop } = await listening();
  c.commandChecked("respond_slack_post", { key, id: "d1", approve: true });
  c.commandChecked("respond_slack_post", { key, id: "d1", approved: "yes" });
  c.commandChecked("respond_slack_post", { key, id: "d1", approved: true, approve: true });
  c.commandChecked("respond_slack_post", { key, id: "d1", approved: true });
  const sent = await commands(1);
  assertEquals(sent, [{ respond_slack_post: { key, id: "d1", approved: true } }]);
  assertEquals(c.state.errors.map((e) => e.why), [
    "respond_slack_post: approved: missing (expected true or false)",
    "respond_slack_post: approved: expected true or false, got a string",
    "respond_slack_post: no field `approve`",
  ]);
  await stop();
});

/** Never called: these lines are here for the compiler alone. */
export function notCompiled(c: ForgeClient): void {
  // @ts-expect-error: no such command (a misspelt name)
  c.command("promt", { key, text: "hi", attachments: [] });
  // @ts-expect-error: a required field is missing (`attachments`)
  c.command("prompt", { key, text: "hi" });
  // @ts-expect-error: a field of the wrong type (`approved` is a boolean)
  c.command("respond_slack_post", { key, id: "d1", approved: "yes" });
  // @ts-expect-error: a value the wire does not know (`to` is a RankMove)
  c.command("task_rank", { project: "p", id: "t1", to: "sideways" });
  // @ts-expect-error: a unit variant carries no fields
  c.command("plugin_update_all", {});
  // @ts-expect-error: a command without a reply cannot be awaited for one
  c.commandReply("prompt", { key, text: "hi", attachments: [] });
}
