import { assertEquals } from "../../../../tests/assert.ts";
import type { AvailableModel, Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { currentModel } from "../../../../protocol/current_model.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// spec: session > header: the model is the catalogue row the resolved id matches. A turn's init
// frame names the bare id, which both `default` and `opus` resolve to; the page must name the
// same row the header named, or the picker flips to "Default" after one turn and back on reload.

const slot = { org: "Acme", project: "alpha", label: "lead" };
const row = (id: string, resolved: string, name: string): AvailableModel => ({
  id,
  display_name: name,
  description: null,
  supports_effort: false,
  supported_effort_levels: [],
  supports_adaptive_thinking: null,
  supports_fast_mode: null,
  supports_auto_mode: null,
  resolved_model: resolved,
});
const rows = [
  row("default", "claude-opus-5-5", "Default (recommended)"),
  row("opus", "claude-opus-5-5", "Opus"),
  row("sonnet", "claude-sonnet-5-5", "Sonnet"),
];

Deno.test("seat model name: a turn's init frame keeps the row the header named", () => {
  const m = new SeatModel(slot);
  const base = snapshot(0);
  const model = currentModel("claude-opus-5-5", null, rows, true);
  m.seed({ ...base, header: { ...base.header, model, available_models: rows } });
  assertEquals(m.model, "opus");
  const init: Wire = { type: "system", subtype: "init", model: "claude-opus-5-5", uuid: "i1" };
  m.accept(readUpdate({ chat_appended: { key: slot, msg: init } }), 0, 1);
  assertEquals(m.model, "opus");
  // A switch the CLI confirms lands on its own row, and a name off the catalogue stays bare.
  const next: Wire = { type: "system", subtype: "init", model: "claude-sonnet-5-5", uuid: "i2" };
  m.accept(readUpdate({ chat_appended: { key: slot, msg: next } }), 1, 1);
  assertEquals(m.model, "sonnet");
  const bare: Wire = { type: "system", subtype: "init", model: "claude-sonnet-4-5", uuid: "i3" };
  m.accept(readUpdate({ chat_appended: { key: slot, msg: bare } }), 2, 1);
  assertEquals(m.model, "claude-sonnet-4-5");
});
