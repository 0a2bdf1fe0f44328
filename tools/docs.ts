/**
 * `deno task docs`: writes docs/protocol.md from the schemas in protocol/, so a client author
 * reads the wire from the repository itself. `deno task docs --check` exits non-zero when the
 * committed file differs from what the schemas say (CI runs it through docs_test.ts).
 *
 * Every table is rendered from a schema, never written by hand: the subjects and their
 * snapshots, the binary kinds, every update (what it means, who hears it, its fields), the client
 * messages, the server messages, every command with its reply, and what forge adds to v29. A
 * field's note is its schema's `.describe()` text.
 */
import type { z } from "zod";
import {
  ABSENT_UPDATES,
  BEYOND_V29,
  BINARY_LAYOUT,
  BinaryKind,
  ClientMessage,
  COMMANDS,
  type CommandSpec,
  NAMED_SUBJECTS,
  PROTOCOL_VERSION,
  replySchema,
  ServerMessage,
  snapshotSchema,
  type Subject,
  UNIT_UPDATES,
  type UpdateName,
  UPDATES,
  updateSpec,
} from "../protocol/mod.ts";
import { generatedPages, writePages } from "./docs_pages.ts";
import { fieldRows, jsonSchema, typeOf } from "./docs_tables.ts";

export { typeOf };

function messages(
  union: z.ZodDiscriminatedUnion,
  heading: string,
  beyond: Readonly<Record<string, string | undefined>>,
): string[] {
  const out = [`## ${heading}`, ""];
  for (const option of union.options as z.ZodObject[]) {
    const s = jsonSchema(option);
    const kind = String(s.properties?.kind?.const);
    out.push(`### \`${kind}\``, "");
    if (beyond[kind]) out.push(`forge's extension: ${beyond[kind]}.`, "");
    out.push(...fieldRows(s, ["kind"]), "");
  }
  return out;
}

function commands(): string[] {
  const out = [
    "## Commands",
    "",
    'A `command` message carries one variant, externally tagged: `{"<name>": {fields}}`, or the',
    "bare name for a unit variant. `reply_to` is required exactly where a reply is listed, and",
    "refused elsewhere. A reply command's refusal rides its reply as a string in forge's words.",
    "",
  ];
  for (const name of Object.keys(COMMANDS).sort() as (keyof typeof COMMANDS)[]) {
    const spec: CommandSpec = COMMANDS[name];
    const reply = replySchema(name);
    out.push(`### \`${name}\``, "");
    if (spec.extension) out.push(`forge's extension: ${spec.extension}.`, "");
    if (spec.fields === null) out.push("A unit variant: sent as its name alone.", "");
    else {
      const s = jsonSchema(spec.fields);
      out.push(...(s.properties ? fieldRows(s) : [`Fields: ${typeOf(s)}.`]), "");
    }
    if (reply === null) {
      out.push("reply_to: refused (no reply: its effect arrives as updates).", "");
    } else {
      const r = jsonSchema(reply);
      const note = r.description ? ` (${r.description})` : "";
      out.push(`reply_to: required. The reply's body on success: ${typeOf(r)}${note}.`, "");
    }
  }
  return out;
}

const SNAPSHOT_TITLES: [Subject, string][] = [
  ["home", "home"],
  [{ session: { org: "", project: "", label: "" } }, "session"],
  ["board", "board"],
  ["usage", "usage"],
  ["dictate_models", "dictate_models"],
  ["extensions", "extensions"],
];

/** Each subject's snapshot, its fields from the schema a validating client checks it with. */
function snapshots(): string[] {
  return [
    ...SNAPSHOT_TITLES.flatMap(([subject, title]) => [
      `### The ${title} snapshot`,
      "",
      ...fieldRows(jsonSchema(snapshotSchema(subject))),
      "",
    ]),
    "Where a shape differs from the original's wire, the reason is beside the field in its",
    "protocol/ schema; `tests/golden_test.ts` checks home, session, usage and board, built from a",
    "live seat, against the shapes recorded in `fixtures/golden/`.",
    "",
  ];
}

/** Who hears an update beyond the seat it names. spec: What a client receives > update. */
function reach(name: UpdateName): string {
  const spec = updateSpec(name);
  const keyed = spec.fields !== null && "key" in (jsonSchema(spec.fields).properties ?? {});
  const who = [keyed ? "the seat's session subscribers" : "home (it names no seat)"];
  if (spec.own) return "the connection that started the take, alone";
  for (const h of spec.hears ?? []) {
    if (h === "home" && keyed) who.push("home, as fleet news");
    else if (h !== "home") who.push(h);
  }
  return who.join("; ");
}

function updates(): string[] {
  const out = [
    "## Updates",
    "",
    'An `update` frame carries one SessionUpdate, externally tagged: `{"<name>": {fields}}`. The',
    `unit variants cross as the bare name: ${UNIT_UPDATES.map((u) => `\`${u}\``).join(", ")}.`,
    "Every keyed update carries the seat's `key` and is numbered on that seat's counter (`seq`,",
    "`span`); a keyless one carries no `seq`. `chat_appended` reaches home only for a successful",
    "`result`, a `session_state_changed` frame or a `background_tasks_changed` frame.",
    "",
    "To add an update, add its row to the update table (`UPDATES` in `protocol/update.ts`, whose",
    "rows live in `updates_seat.ts`, `updates_fleet.ts` and `updates_subsystems.ts`): what it",
    "means, its fields' schema with a `.describe()` note on each field that needs one, who hears",
    "it beyond its seat, and `extension` when protocol v29 does not have it. That one edit types",
    "the emit path (`emit(name, fields)` does not compile for a name or field the row does not",
    "hold), routes it, makes every test client validate it and puts it on this page",
    "(`tools/deno.sh task docs`); `protocol/update_test.ts` then insists product code emits it.",
    "",
  ];
  for (const name of Object.keys(UPDATES) as UpdateName[]) {
    const spec = updateSpec(name);
    out.push(`### \`${name}\``, "", spec.about, "", `Reaches: ${reach(name)}.`, "");
    if (spec.extension) out.push(`forge's extension: ${spec.extension}`, "");
    out.push(
      ...(spec.fields === null
        ? ["A unit variant: it crosses as its name alone."]
        : fieldRows(jsonSchema(spec.fields))),
      "",
    );
  }
  out.push(
    "### Updates of the original this server never sends, and why",
    "",
    ...Object.entries(ABSENT_UPDATES).map(([name, why]) => `- \`${name}\`: ${why}`),
    "",
  );
  return out;
}

/** What forge adds beyond protocol v29, gathered from the tables' `extension` marks. */
function extensions(): string[] {
  const rows = [
    ...(Object.keys(UPDATES) as UpdateName[]).flatMap((n) => {
      const why = updateSpec(n).extension;
      return why ? [`- update \`${n}\`: ${why}`] : [];
    }),
    ...(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).flatMap((n) => {
      const why = (COMMANDS[n] as CommandSpec).extension;
      return why ? [`- command \`${n}\`: ${why}`] : [];
    }),
  ];
  const home = BEYOND_V29.home.map((n) => `\`${n}\``).join(", ");
  const listed = (of: Readonly<Record<string, string | undefined>>, what: string) =>
    Object.entries(of).map(([name, why]) => `- ${what} \`${name}\`: ${why}`);
  const { kinds, message_fields } = BEYOND_V29;
  return [
    "## forge's extensions to v29",
    "",
    "Wire names the original never had; a v29 client meets none of them unless it sends one.",
    "A field is named `kind.path`, `[]` stepping into a list.",
    "",
    ...listed(kinds.client, "client message"),
    ...listed(kinds.server, "server message"),
    ...rows,
    `- home fields: ${home} (docs/notify.md)`,
    ...listed(BEYOND_V29.fields, "field"),
    ...listed(BEYOND_V29.subject_fields, "snapshot field"),
    ...listed(message_fields.client, "field of a client message"),
    ...listed(message_fields.server, "field of a server message"),
    "",
  ];
}

/** The whole document. */
export function render(): string {
  const kinds = (Object.entries(BinaryKind) as [keyof typeof BinaryKind, number][]).map((
    [name, n],
  ) => `| ${n} | \`${name}\` | ${BINARY_LAYOUT[name]} |`);
  return [
    "# forge's wire protocol",
    "",
    "<!-- Generated by `tools/deno.sh task docs` from the schemas in protocol/. Do not edit. -->",
    "",
    `Protocol version ${PROTOCOL_VERSION}. One WebSocket at \`/socket\`; every text message is a`,
    "JSON object tagged on `kind`. The schemas in `protocol/` are the source of this page and of",
    "the server's own types; a TypeScript client can import `protocol/mod.ts` as its SDK, and",
    "narrow every update with `readUpdate` / `decodeUpdate` (a union discriminated on `name`).",
    "`tools/deno.sh task conformance ws://HOST:PORT/socket` checks a running server against the",
    "spec's client-visible rules.",
    "",
    "## Subjects",
    "",
    `\`subscribe\` names one of: ${NAMED_SUBJECTS.map((s) => `\`${s}\``).join(", ")}, or a seat as`,
    '`{"session": Slot}`. A Slot is `{org, project, label}`.',
    "",
    ...snapshots(),
    "## Binary frames",
    "",
    "The first byte is the kind; every integer after it is little-endian.",
    "",
    "| byte | kind | direction and layout |",
    "|---|---|---|",
    ...kinds,
    "",
    ...updates(),
    ...messages(ClientMessage, "What a client sends", BEYOND_V29.kinds.client),
    ...messages(ServerMessage, "What a client receives", BEYOND_V29.kinds.server),
    ...commands(),
    ...extensions(),
  ].join("\n");
}

if (import.meta.main) {
  // Every generated page, not only this one: docs_pages.ts lists them.
  await writePages(generatedPages(render), Deno.args.includes("--check"));
}
