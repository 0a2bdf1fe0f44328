import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// What the composer offers and says beside the conversation: the CLI's commands from the
// snapshot and their pushed moves, and whether the CLI is compacting the conversation. spec:
// session > slash_commands (slash_commands_changed); session > composer (compacting).

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

const status = (status: string | null) => ({
  chat_appended: { key: slot, msg: { type: "system", subtype: "status", status } },
});

Deno.test("seat commands: compacting from the CLI's status until its next status", () => {
  const { m, feed } = seeded();
  assertEquals(m.compacting, false);
  feed(status("compacting"));
  assertEquals(m.compacting, true);
  feed(status(null));
  assertEquals(m.compacting, false);
});

Deno.test("seat commands: a boundary or a turn's end clears compacting; a snapshot seeds it", () => {
  const { m, feed } = seeded();
  feed(status("compacting"));
  feed({ chat_appended: { key: slot, msg: { type: "system", subtype: "compact_boundary" } } });
  assertEquals(m.compacting, false);
  feed(status("compacting"));
  feed({ turn_cancelled: { key: slot } });
  assertEquals(m.compacting, false);
  const composer = { ...snapshot(0).composer, machine: "compacting", compacting: true };
  assertEquals(seeded({ composer }).m.compacting, true);
});
