// Spawned tier: commands and updates the original's clients use, produced from
// what the CLI and the workspace know: the original's commands start_default and
// replay_conversation, its updates history_replayed and prompt_queued_while_busy.
import { z } from "zod";
import { AvailableModel, CurrentModel } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { chatOf, command, seatWorld, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("start_default wakes the first project's lead; a busy prompt is told; replay answers the page", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }, { name: "beta" }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  c.send({ kind: "subscribe", what: { session: lead }, answering: true });
  await c.next((m) => m.kind === "snapshot");
  // A seat with no conversation has nothing to replay: refused naming the command.
  command(c, "replay_conversation", { key: lead });
  const refused = await c.next((m) => m.kind === "error");
  // The seats' convention: `dispatch`, the why leading with the command it refused.
  assertEquals(refused.what, "dispatch");
  assertMatch(String(refused.why), /^replay_conversation: .*no session/);

  command(c, "start_default", { project_name: null, launch_settings: {} });
  const connected = updateOf(
    await c.next((m) => {
      const u = updateOf(m, "connected");
      return u !== null && (u.key as Msg).project === "alpha";
    }, 60_000),
    "connected",
  )!;
  // `connected` carries the model as the header does (CurrentModel, AvailableModel).
  const current = CurrentModel.parse(connected.current_model);
  assert(current.resolved_id.length > 0, "the CLI's model is named");
  assert(z.array(AvailableModel).parse(connected.available_models).length > 0);

  command(c, "prompt", { key: lead, text: "[[script:slow]] count slowly", attachments: [] });
  await c.next((m) => {
    const delta = (chatOf(m)?.event as Msg | undefined)?.delta as Msg | undefined;
    return delta?.type === "text_delta";
  }, 30_000);
  command(c, "prompt", { key: lead, text: "[[script:hello]] and then", attachments: [] });
  await c.next((m) => !!updateOf(m, "prompt_queued_while_busy"), 10_000);
  command(c, "cancel", { key: lead });
  await c.next((m) => !!updateOf(m, "turn_cancelled"), 30_000);

  command(c, "replay_conversation", { key: lead });
  const replayed = updateOf(
    await c.next((m) => !!updateOf(m, "history_replayed"), 10_000),
    "history_replayed",
  )!;
  const history = replayed.history as Msg[];
  assert(history.length > 0, "the replay carries the page's frames");
  assert(
    history.some((f) => JSON.stringify(f).includes("count slowly")),
    "the forged prompt is among them",
  );
  assertEquals(typeof replayed.compaction_count, "number");
  await forge.stop();
});
