/**
 * docs/architecture.md's handler map, rendered from the manifests the registry routes by: for
 * every client message kind, Command, subject, binary kind and agent tool, the area that answers
 * it and the file its handler is written in. A newcomer finds any wire message's handler in one
 * hop, and the page cannot name a handler that moved (tests/docs_pages_test.ts boots a server and
 * checks that this list of areas is the one its registry holds).
 */
import { accountsArea } from "../server/areas/accounts.ts";
import { cliVersionArea } from "../server/areas/cli_version.ts";
import { dictateModelsArea } from "../server/areas/dictate_models.ts";
import { homeArea } from "../server/areas/home.ts";
import { perfArea } from "../server/areas/perf.ts";
import { serviceStatusArea } from "../server/areas/service_status.ts";
import { seatsArea } from "../server/areas/seats.ts";
import { sessionArea } from "../server/areas/session.ts";
import { settingsArea } from "../server/areas/settings.ts";
import { boardArea } from "../server/board/mod.ts";
import type { AnyManifest } from "../server/subsystem.ts";
import { workersArea } from "../server/workers/mod.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";

const never = (): never => {
  throw new Error("a manifest read for the docs is never loaded");
};

/**
 * The manifests in the order server.ts hands them to the registry. A core area's factory only
 * stores what it is given until its `load` runs, which the docs never do.
 */
export function manifests(): AnyManifest[] {
  return [
    homeArea({ build: null as never, board: never, subsystemFields: never }),
    sessionArea(never),
    serviceStatusArea(),
    cliVersionArea(),
    dictateModelsArea,
    perfArea("."),
    accountsArea,
    settingsArea(never),
    seatsArea(null as never),
    workersArea(never),
    boardArea(),
    ...SUBSYSTEMS,
  ] as AnyManifest[];
}

/** Where each core area's handlers are written; a subsystem's live in `subsystems/<id>/`. */
const CORE_SCOPE: Record<string, string[]> = {
  home: ["server/areas/home.ts"],
  session: ["server/areas/session.ts"],
  perf: ["server/areas/perf.ts"],
  accounts: ["server/areas/accounts.ts"],
  service_status: ["server/areas/service_status.ts"],
  cli_version: ["server/areas/cli_version.ts"],
  dictate_models: ["server/areas/dictate_models.ts"],
  settings: [
    "server/areas/settings.ts",
    "server/areas/settings_tools.ts",
    "server/areas/settings_write_tool.ts",
  ],
  seats: ["server/areas/seats.ts", "server/areas/conversation.ts"],
  workers: ["server/workers/"],
  board: ["server/board/"],
};

/** The messages dispatch answers itself, before any area is asked. */
const DISPATCH_KINDS = ["ping", "subscribe", "unsubscribe", "showing", "command"];

const root = new URL("../", import.meta.url);

/** The scope's source files (no tests, no manifest), read once. */
function sources(scope: string[]): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const entry of scope) {
    const paths = entry.endsWith("/")
      ? [...Deno.readDirSync(new URL(entry, root))]
        .filter((e) => e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts"))
        .filter((e) => e.name !== "manifest.ts")
        .map((e) => entry + e.name).sort()
      : [entry];
    for (const path of paths) out.push({ path, text: Deno.readTextFileSync(new URL(path, root)) });
  }
  return out;
}

/**
 * The naming rule: a handler is a property, method or const named exactly as the wire spells the
 * name (`prompt: (c) =>`, `async more(`, `{ board: subject }`, `"tasks__create": `,
 * `const notify_test: CommandHandler<...>`). The one other shape is `subjectArea(...)`, an area
 * with a single subject whose read function is its handler.
 */
function definesHandler(name: string, text: string): boolean {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `(^\\s*|{\\s*|\\bconst\\s+)(async\\s+)?("${esc}"|${esc})\\s*[:(]`,
    "m",
  ).test(text) || new RegExp(`subjectArea\\([^)]*"${esc}"`, "s").test(text);
}

/**
 * The file that defines a name's handler: a property or method keyed by it (`prompt: (c) =>`,
 * `async more(`, `{ board: subject }`, `"tasks__create": `), else where the name is first written.
 */
export function handlerFile(name: string, files: { path: string; text: string }[]): string {
  const found = files.find((f) => definesHandler(name, f.text)) ??
    files.find((f) => f.text.includes(`"${name}"`));
  return found?.path ?? files[0].path;
}

/**
 * The naming rule's breaches: every wire name an area declares (client kind, Command, subject,
 * agent tool) whose handler is not a property or method keyed by that exact name in the area's
 * own files. Empty when the map's every row points at the handler itself.
 */
export function unkeyedHandlers(list: AnyManifest[] = manifests()): string[] {
  const out: string[] = [];
  for (const m of list) {
    const files = sources(CORE_SCOPE[m.id] ?? [`subsystems/${m.id}/`]);
    const names = [...m.verbs, ...m.commands, ...m.subjects, ...(m.tools ?? []).map((t) => t.name)];
    for (const name of names) {
      if (!files.some((f) => definesHandler(name, f.text))) out.push(`${m.id}: ${name}`);
    }
  }
  return out;
}

type Row = { name: string; area: string; file: string };

/**
 * One row per name `pick` reads off each manifest; a binary kind's handler is `binary:`. A name
 * the area also answers as a client message kind (the browser's `browser_tabs` is a socket verb
 * and an agent's tool) is looked for past the verb's own file.
 */
function rowsOf(
  pick: (m: AnyManifest) => readonly (string | number)[],
  list: AnyManifest[],
  besideVerbs = false,
) {
  const rows: Row[] = [];
  for (const m of list) {
    const files = sources(CORE_SCOPE[m.id] ?? [`subsystems/${m.id}/`]);
    for (const name of pick(m)) {
      const key = typeof name === "number" ? "binary" : name;
      const verb = besideVerbs && (m.verbs as readonly string[]).includes(key);
      const pool = verb ? files.filter((f) => f.path !== handlerFile(key, files)) : files;
      rows.push({ name: String(name), area: m.id, file: handlerFile(key, pool) });
    }
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

function table(rows: Row[], head: string): string[] {
  return [
    `| ${head} | area | handler |`,
    "|---|---|---|",
    ...rows.map((r) => `| \`${r.name}\` | ${r.area} | \`${r.file}\` |`),
    "",
  ];
}

/** The generated part of docs/architecture.md. */
export function renderHandlerMap(list: AnyManifest[] = manifests()): string {
  const areas = list.map((m) =>
    `| ${m.id} | ${m.switch ? `\`${m.switch}\`` : "always"} | ${m.note} |`
  );
  return [
    "### Areas",
    "",
    "| area | switch | what it serves |",
    "|---|---|---|",
    ...areas,
    "",
    "### Client messages",
    "",
    `${DISPATCH_KINDS.map((k) => `\`${k}\``).join(", ")} are answered by \`server/dispatch.ts\``,
    "itself; every other kind is routed to the area below.",
    "",
    ...table(rowsOf((m) => m.verbs, list), "kind"),
    "### Commands",
    "",
    ...table(rowsOf((m) => m.commands, list), "command"),
    "### Subjects",
    "",
    ...table(rowsOf((m) => m.subjects, list), "subject"),
    "### Binary kinds a client sends",
    "",
    ...table(rowsOf((m) => m.binary, list), "kind"),
    "### forge's MCP tools",
    "",
    ...table(rowsOf((m) => (m.tools ?? []).map((t) => t.name), list, true), "tool"),
  ].join("\n").trimEnd();
}
