import { assertEquals } from "../../tests/assert.ts";
import type { PluginUpdateRunRow } from "../../protocol/mod.ts";
import type { CliOutcome } from "./cli.ts";
import { checkRows, rowAfterUpdate } from "./run_rows.ts";
import type { Inventory } from "./scan.ts";

const row = (id: string, version: string | null): PluginUpdateRunRow => ({
  plugin_id: id,
  scope: "user",
  cwd_raw: "/cfg",
  marketplace: id.split("@")[1] ?? "",
  status: "queued",
  installed_version: version,
  available_version: null,
  detail: null,
});
const out = (o: Partial<CliOutcome>): CliOutcome => ({
  ok: true,
  message: "",
  failureCode: null,
  updateOutcome: null,
  oldVersion: null,
  newVersion: null,
  stderr: "",
  ...o,
});

// The CLI's update answers, as CLI 2.1.332 gave them, mapped to the spec's row statuses.
Deno.test("run rows: an update's outcome decides the row, with the versions either side", () => {
  const r = row("a@m", "0.1.0");
  assertEquals(
    rowAfterUpdate(r, out({ updateOutcome: "updated", oldVersion: "0.1.0", newVersion: "0.2.0" })),
    { status: "updated", installed_version: "0.1.0", available_version: "0.2.0", detail: null },
  );
  assertEquals(
    rowAfterUpdate(
      r,
      out({ updateOutcome: "up_to_date", oldVersion: "0.1.0", newVersion: "0.1.0" }),
    )
      .status,
    "already_current",
  );
  assertEquals(rowAfterUpdate(r, out({ ok: false, message: 'Plugin "a" is not installed' })), {
    status: "failed",
    detail: 'Plugin "a" is not installed',
  });
});

Deno.test("run rows: a check compares the installed version with the candidate after the refresh", () => {
  const inv = {
    snapshot: {
      components: [
        { plugin: "a@m", available_version: "2.0.0" },
        { plugin: "b@m", available_version: "1.0.0" },
        { plugin: "c@m", available_version: null },
      ],
    },
  } as unknown as Inventory;
  const rows = [row("a@m", "1.0.0"), row("b@m", "1.0.0"), row("c@m", "1.0.0"), row("d@x", "1")];
  const checked = checkRows(rows, inv, new Map([["x", "Failed to refresh marketplace 'x'"]]));
  assertEquals(checked.map((r) => [r.status, r.available_version, r.detail]), [
    ["update_available", "2.0.0", null],
    ["already_current", "1.0.0", null],
    ["skipped", null, "marketplace m does not offer c@m now"],
    ["failed", null, "Failed to refresh marketplace 'x'"],
  ]);
});
