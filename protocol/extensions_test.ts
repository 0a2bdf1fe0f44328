// What forge adds beyond v29 is listed once (protocol/beyond.ts BEYOND_V29) and docs/protocol.md
// marks each: every listed command is one the decoder knows, nothing is listed twice, and each
// added field names its update and the field.
import type { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { ClientMessage } from "./client.ts";
import { COMMANDS } from "./command.ts";
import { BEYOND_V29 } from "./beyond.ts";
import { ServerMessage } from "./server.ts";
import { snapshotSchema } from "./snapshots.ts";
import { UPDATE_NAMES, type UpdateName, updateSpec } from "./update.ts";

Deno.test("BEYOND_V29: commands are real, names unique, fields name a field of a real update", () => {
  for (const name of BEYOND_V29.commands) assert(name in COMMANDS, `${name} is no command`);
  const fields = Object.keys(BEYOND_V29.fields);
  const all = [
    ...BEYOND_V29.commands,
    ...BEYOND_V29.updates,
    ...BEYOND_V29.home,
    ...fields,
    ...Object.keys(BEYOND_V29.kinds.client),
    ...Object.keys(BEYOND_V29.kinds.server),
    ...Object.keys(BEYOND_V29.message_fields.client),
    ...Object.keys(BEYOND_V29.message_fields.server),
  ];
  assertEquals(new Set(all).size, all.length, "a name listed twice");
  for (const field of fields) {
    const [name, key] = field.split(".");
    assert(UPDATE_NAMES.includes(name as UpdateName), `${field}: no update ${name}`);
    const shape = (updateSpec(name as UpdateName).fields as z.ZodObject | null)?.shape ?? {};
    assert(key in shape, `${field}: ${name} has no field ${key}`);
  }
  assert(BEYOND_V29.updates.includes("review_threads_changed"));
  assert(fields.includes("settings_write_resolved.failure"));
  assert(fields.includes("plugins_inventory_updated.lsp"));
  // spec: How a message is tagged; What is not here: v29's own plugin actions and held kinds.
  for (const name of ["plugin_install", "plugin_update", "document_hand_off_pending"]) {
    assert(!(all as string[]).includes(name), `${name} is v29's own`);
  }
});

/** The option of a message union whose `kind` is `kind`, if there is one. */
function option(union: z.ZodDiscriminatedUnion, kind: string): z.ZodType | undefined {
  return (union.options as z.ZodObject[]).find((o) => o.shape.kind.value === kind);
}

/** A marked field's path after its kind or subject, as `reaches` walks it: `areas[]` is the
 * field `areas`, then into its list. */
function stepsOf(path: string[]): string[] {
  return path.flatMap((p) => p.endsWith("[]") ? [p.slice(0, -2), "[]"] : [p]);
}

/** Whether `steps` (`areas[]`, `in_force`) name a field inside `schema`, through lists and unions. */
function reaches(schema: z.ZodType, steps: string[]): boolean {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (["optional", "nullable", "default", "readonly"].includes(def.type)) {
    return reaches(def.innerType as z.ZodType, steps);
  }
  if (def.type === "union") return (def.options as z.ZodType[]).some((o) => reaches(o, steps));
  if (steps.length === 0) return true;
  const [step, ...rest] = steps;
  if (step === "[]") return def.type === "array" && reaches(def.element as z.ZodType, rest);
  if (def.type !== "object") return false;
  const field = (def.shape as Record<string, z.ZodType>)[step];
  return field !== undefined && reaches(field, rest);
}

/** What is wrong with a BEYOND_V29's message slots: kinds no union has, fields no kind carries. */
function messageSlotProblems(
  beyond: Pick<typeof BEYOND_V29, "kinds" | "message_fields">,
): string[] {
  const out: string[] = [];
  const sides = [["client", ClientMessage], ["server", ServerMessage]] as const;
  for (const [side, union] of sides) {
    for (const kind of Object.keys(beyond.kinds[side])) {
      if (!option(union, kind)) out.push(`${side} kind ${kind}: no such message`);
    }
    for (const field of Object.keys(beyond.message_fields[side])) {
      const [kind, ...path] = field.split(".");
      const schema = option(union, kind);
      const steps = stepsOf(path);
      if (!schema || !reaches(schema, steps)) out.push(`${side} field ${field}: no such field`);
    }
  }
  return out;
}

Deno.test("BEYOND_V29: message kinds and fields name real messages; a bad one is caught", () => {
  assertEquals(messageSlotProblems(BEYOND_V29), []);
  const server = Object.keys(BEYOND_V29.message_fields.server);
  assert(server.includes("settings.document.areas[].keys[].in_force"));
  assert(server.includes("browser_tabs.audio_off"));
  // spec: What is not here: commit_diff is named there, so it is v29's, not forge's.
  assert(
    !("commit_diff" in BEYOND_V29.kinds.client) && !("commit_diff" in BEYOND_V29.kinds.server),
  );
  const bad = {
    kinds: { client: { warp: "no" }, server: { pong: "is v29's, but real" } },
    message_fields: {
      client: { "subscribe.what": "real", "subscribe.volume": "no" },
      server: { "settings.document.areas[].keys[].colour": "no", "page.turns[].key": "real" },
    },
  } as unknown as Pick<typeof BEYOND_V29, "kinds" | "message_fields">;
  assertEquals(messageSlotProblems(bad), [
    "client kind warp: no such message",
    "client field subscribe.volume: no such field",
    "server field settings.document.areas[].keys[].colour: no such field",
  ]);
});

/** What is wrong with snapshot field marks: a subject with no snapshot, a path it lacks. */
function subjectFieldProblems(fields: Readonly<Record<string, string>>): string[] {
  const subjects = ["home", "board", "usage", "dictate_models", "extensions"];
  const out: string[] = [];
  for (const field of Object.keys(fields)) {
    const [subject, ...path] = field.split(".");
    const schema = subject === "session"
      ? snapshotSchema({ session: { org: "", project: "", label: "" } })
      : subjects.includes(subject)
      ? snapshotSchema(subject as "home")
      : undefined;
    const steps = stepsOf(path);
    if (!schema || !reaches(schema, steps)) out.push(`snapshot field ${field}: no such field`);
  }
  return out;
}

Deno.test("BEYOND_V29: snapshot fields name real fields of real subjects; a bad one is caught", () => {
  assertEquals(subjectFieldProblems(BEYOND_V29.subject_fields), []);
  assert("usage.week.by_account" in BEYOND_V29.subject_fields);
  assertEquals(
    subjectFieldProblems({ "usage.today.by_model": "real", "usage.colour": "no", "warp.x": "no" }),
    ["snapshot field usage.colour: no such field", "snapshot field warp.x: no such field"],
  );
});
