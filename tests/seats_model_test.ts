// Socket tier: set_model on a live seat running the real claude CLI against the fake API. The
// CLI takes any model name it is handed (it answers an unknown id with itself), so forge judges
// a name by the seat's catalogue - the models its header offers a picker, the ids they resolve
// to, its launch model and its account's `models` - and refuses any other as set_model_failed
// in its own words, before the CLI hears it. spec: set_model (failure -> set_model_failed).
import { assertEquals, assertMatch } from "./assert.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;
const has = (name: string) => (m: Msg) => updateOf(m, name) !== null;

Deno.test("set_model: a name the seat's catalogue does not know is refused, naming it", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const failures: Msg[] = [];
  c.onFrame((f) => {
    const u = f.type === "json" ? updateOf(f.data, "set_model_failed") : null;
    if (u) failures.push(u);
  });
  await subscribeSeat(c, lead);

  command(c, "set_model", { key: lead, model: "sonnet" });
  command(c, "set_model", { key: lead, model: "gpt-4" });
  const refused = updateOf(await c.next(has("set_model_failed"), 10_000), "set_model_failed")!;
  assertEquals(refused.model, "gpt-4");
  assertMatch(
    String(refused.message),
    /^`gpt-4` is not a model this seat knows; it offers default, .*sonnet.*claude-sonnet-4-5$/,
  );

  // The turn after runs on the model the CLI took, not the one refused; the header says so.
  command(c, "prompt", { key: lead, text: "[[script:hello]] hi", attachments: [] });
  await c.next((m) => chatOf(m)?.type === "result", 30_000);
  const main = (await world.apiRequests()).filter((r) => r.kind === "main") as Msg[];
  assertEquals((main.at(-1)!.body as Msg).model, "claude-sonnet-5-5");
  c.send({ kind: "subscribe", what: { session: lead } });
  const header = ((await c.next((m) => m.kind === "snapshot")).data as Msg).header as Msg;
  const model = header.model as Msg;
  assertEquals([model.requested_id, model.resolved_id, model.catalog_id], [
    "sonnet",
    "claude-sonnet-5-5",
    "sonnet",
  ]);
  assertEquals(failures.map((f) => f.model), ["gpt-4"]);
  await forge.stop();
});
