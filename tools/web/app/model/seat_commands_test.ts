import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// What the composer offers and says beside the conversation: the CLI's commands from the
// snapshot and their pushed moves. spec: session > slash_commands (slash_commands_changed).

const slot = { org: "Acme", project: "alpha", label: "lead" };
const cmd = (name: string) => ({ name, description: "", input_hint: "" });

function seeded(extra: Record<string, Wire> = {}): { m: SeatModel; feed: (u: Wire) => void } {
  const m = new SeatModel(slot);
  m.seed({ ...snapshot(0), ...extra } as ReturnType<typeof snapshot>);
  let n = 0;
  return { m, feed: (u: Wire) => void m.accept(readUpdate(u), n++, 1) };
}

Deno.test("seat commands: the snapshot's slash commands, then the ones a push moves to", () => {
  const { m, feed } = seeded({ slash_commands: [cmd("compact"), cmd("review")] });
  assertEquals(m.slashCommands.map((c) => c.name), ["compact", "review"]);
  feed({ slash_commands_changed: { key: slot, commands: [cmd("compact"), cmd("mine")] } });
  assertEquals(m.slashCommands.map((c) => c.name), ["compact", "mine"]);
});
