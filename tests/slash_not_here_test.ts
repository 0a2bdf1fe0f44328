// The commands the web menu leaves out (tools/web/app/model/slash_commands.ts NOT_IN_A_SESSION)
// are left out on the real CLI's word: each is still advertised, and each sent through forge as
// a prompt is answered with the line that says it does nothing in a stream-json session. A CLI
// that starts running one fails this, and the entry goes. spec: session > slash_commands.
import { NOT_IN_A_SESSION } from "../tools/web/app/model/slash_commands.ts";
import type { Frame } from "../tools/client_lib.ts";
import { assert } from "./assert.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";

Deno.test("slash commands: the ones the menu leaves out do nothing in a session", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const c = await forge.ready();
  const alpha = world.lead("alpha");
  const snapshot = await subscribeSeat(c, alpha, true) as { slash_commands: { name: string }[] };
  let advertised = snapshot.slash_commands.map((s) => s.name);
  for (const [name, words] of Object.entries(NOT_IN_A_SESSION)) {
    const before = new Set<Frame>(c.frames);
    await c.command("prompt", { key: alpha, text: `/${name}`, attachments: [] });
    const result = await c.nextFrame((f) => {
      if (before.has(f) || f.type !== "json" || f.data.kind !== "update") return false;
      const msg = (f.data.update as { chat_appended?: { msg?: { type?: string } } })
        .chat_appended?.msg;
      return msg?.type === "result";
    }, 60_000);
    const said = String(
      (result.type === "json" &&
        (result.data.update as { chat_appended: { msg: { result?: unknown } } }).chat_appended
          .msg.result) ?? "",
    );
    assert(said.startsWith(words), `/${name} answered ${JSON.stringify(said.slice(0, 200))}`);
    // The list as the CLI advertises it by now (a seat that had not run a turn lists none).
    const listed = c.frames.findLast((f) =>
      f.type === "json" && f.data.kind === "update" &&
      (f.data.update as Record<string, unknown>).slash_commands_changed !== undefined
    );
    if (listed?.type === "json") {
      const u = listed.data.update as { slash_commands_changed: { commands: { name: string }[] } };
      advertised = u.slash_commands_changed.commands.map((s) => s.name);
    }
    assert(advertised.includes(name), `/${name} is no longer advertised: ${advertised}`);
  }
});
