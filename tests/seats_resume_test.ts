// Socket tier: a session whose last turn the kill left unanswered, resumed by the real CLI. The
// CLI closes that turn with an assistant row of its own, written to the transcript just before
// the next prompt's row and never sent on stdout; the seat's history still holds it, where the
// transcript has it (spec: session > conversation; more).
import { assert, assertEquals } from "./assert.ts";
import { historyMatches } from "./crash_soak_checks.ts";
import { chatOf, command, seatWorld, subscribeSeat } from "./seats_harness.ts";

type Row = { type?: string; uuid?: string; message?: { content?: unknown } };

Deno.test("a resumed session's history holds the row the CLI closed the unanswered turn with", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const lead = world.lead("alpha");
  const first = await world.startInProcess();
  const c = await first.ready();
  await subscribeSeat(c, lead, true);
  command(c, "prompt", { key: lead, text: "hello there", attachments: [] });
  await c.next((m) => chatOf(m)?.type === "result", 30_000);
  await first.stop();

  // What a kill after the prompt's row and before any answer leaves on disk.
  const book = JSON.parse(await Deno.readTextFile(`${world.dir}/forge/state/seats/sessions.json`));
  const transcript: string = book[`Acme/alpha/lead`].transcript;
  const lines = (await Deno.readTextFile(transcript)).split("\n").filter(Boolean);
  const prompt = lines.findLastIndex((l) => {
    const row = JSON.parse(l) as Row;
    return row.type === "user" && typeof row.message?.content === "string";
  });
  assert(prompt > 0, "the transcript holds the prompt");
  await Deno.writeTextFile(transcript, lines.slice(0, prompt + 1).join("\n") + "\n");

  const second = await world.startInProcess();
  const d = await second.ready();
  await subscribeSeat(d, lead, true);
  command(d, "prompt", { key: lead, text: "hello again", attachments: [] });
  await d.next((m) => chatOf(m)?.type === "result", 30_000);
  const rows = (await Deno.readTextFile(transcript)).split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
  const closing = rows.slice(prompt + 1).find((r) =>
    r.type === "assistant" && JSON.stringify(r.message?.content).includes("No response requested.")
  );
  assert(closing?.uuid, "the resumed CLI closed the unanswered turn in its transcript");
  const streamed = d.frames.flatMap((f) => f.type === "json" ? [chatOf(f.data)?.uuid] : []);
  assert(!streamed.includes(closing.uuid), "the CLI never sent that row on stdout");

  const h = await historyMatches(d, lead, transcript);
  assertEquals(h.problems, []);
  await second.stop();
});
