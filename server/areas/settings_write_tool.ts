import { z } from "zod";
import { KeyValue, type SettingsKey } from "../../protocol/mod.ts";
import { fingerprint } from "../config/fingerprint.ts";
import type { ConfigStore } from "../config/store.ts";
import { offKind } from "../config/edit_kinds.ts";
import { applyEdits, type Edit } from "../config/write/edits.ts";
import { saveSettings } from "../config/write/writer.ts";
import {
  defineTool,
  type Host,
  type ToolCall,
  type ToolHandler,
  toolHandlers,
  type ToolResult,
} from "../subsystem.ts";

/** The settings tools that write. */
export const SETTINGS_WRITE_TOOLS = [
  defineTool({
    name: "settings__set",
    family: "settings",
    description:
      "Change forge's own settings (forge.toml). Pass one or more edits, each an exact key path " +
      "(as settings__get prints it) and its new value; a section's mutually required keys go in " +
      "the same call. The batch is checked first: a batch forge would refuse comes back with the " +
      "reason and nothing is asked. Otherwise the person is shown every key with its value now " +
      "and after, and this call waits for their answer (possibly hours). Approved: the whole " +
      "batch is written and forge reloads; declined: nothing is written.",
    input: z.object({
      edits: z.array(
        z.object({
          key: z.string().min(1).describe("the key's exact path, e.g. server.port"),
          value: KeyValue.nullable().describe("the new value, in the key's own type"),
        }).strict(),
      ).min(1),
      reason: z.string().optional().describe("why, in a sentence the person reads"),
    }).strict(),
    roles: ["lead", "worker"],
  }),
  defineTool({
    name: "settings__unset",
    family: "settings",
    description:
      "Clear one of forge's settings so its default applies again. Asks the person first, as " +
      "settings__set does, and waits for the answer.",
    input: z.object({
      key: z.string().min(1).describe("the key's exact path"),
      reason: z.string().optional().describe("why, in a sentence the person reads"),
    }).strict(),
    roles: ["lead", "worker"],
  }),
] as const;

interface WriteDeps {
  host: Host;
  store: () => ConfigStore;
  guard: (before: string, after: string) => string | null;
}

/** settings__set and settings__unset: check the batch, park it, write it once approved. */
export function settingsWriteHandlers(deps: WriteDeps): Record<string, ToolHandler> {
  return toolHandlers(SETTINGS_WRITE_TOOLS)({
    settings__set: ({ edits, reason }, call) =>
      write("settings__set", edits, reason ?? null, call, deps),
    settings__unset: ({ key, reason }, call) =>
      write("settings__unset", [{ key, value: null }], reason ?? null, call, deps),
  });
}

async function write(
  tool: string,
  asked: { key: string; value: KeyValue | null }[],
  reason: string | null,
  call: ToolCall,
  deps: WriteDeps,
): Promise<ToolResult> {
  const store = deps.store();
  const refuse = (why: string): ToolResult => ({
    text: `${tool}: ${why}. Nothing was asked or written.`,
    isError: true,
  });
  const rows = new Map<string, { area: string; key: SettingsKey }>();
  for (const area of store.document.areas) {
    for (const key of area.keys) rows.set(key.path, { area: area.id, key });
  }
  const unknown = asked.filter((e) => !rows.has(e.key)).map((e) => `\`${e.key}\``);
  if (unknown.length > 0) return refuse(`forge.toml has no key ${unknown.join(", ")}`);
  const edits: Edit[] = asked.map((e) => {
    const row = rows.get(e.key)!;
    return { area: row.area, key_path: e.key, pattern: row.key.pattern, op: "set", value: e.value };
  });
  const off = offKind(edits, store.areas);
  if (off) return refuse(off.message);
  // spec: the batch is validated against the loader before the prompt is minted.
  const path = store.loaded.path;
  const before = await Deno.readTextFile(path).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return ""; // no file: the defaults, as at boot
    throw err;
  });
  const applied = applyEdits(before, edits);
  if (!applied.ok) return refuse(applied.message);
  const invalid = store.validate(applied.text);
  if (invalid !== null) return refuse(`forge's loader refuses the batch: ${invalid}`);
  const guarded = deps.guard(before, applied.text);
  if (guarded !== null) return refuse(guarded);
  if (applied.text === before) {
    return { text: `${tool}: forge.toml already holds these values; nothing was asked.` };
  }
  const keys = asked.map((e) => {
    const row = rows.get(e.key)!.key;
    return { path: e.key, class: row.class, now: row.value, after: e.value };
  });
  // The write and the reload are the ask's effect: settings_write_resolved goes out once
  // forge.toml holds the batch and forge runs on it, or names why it does not.
  const parked = deps.host.asks.park<boolean>(call.seat.slot, {
    kind: "settings_write",
    request: { tool, keys, reason },
    signal: call.signal,
    effect: () => land(tool, path, before, edits, keys, deps),
  });
  const outcome = await parked.outcome;
  if (outcome.ending === "answered" && outcome.result) return outcome.result;
  return {
    text: `${tool}: ${endingWords(outcome.ending)}; nothing was written.`,
    isError: true,
  };
}

/** Writes an approved batch and reloads forge on it; a failure is said in words. */
async function land(
  tool: string,
  path: string,
  before: string,
  edits: Edit[],
  keys: { path: string; after: KeyValue | null }[],
  deps: WriteDeps,
): Promise<ToolResult> {
  const store = deps.store();
  const saved = await saveSettings({
    path,
    fingerprint: fingerprint(before),
    edits,
    validate: (text) => store.validate(text),
    guard: deps.guard,
  });
  if (!saved.ok) {
    return {
      text:
        `${tool}: the person approved, but the write was refused (${saved.reason}): ${saved.message}. Nothing was written.`,
      isError: true,
    };
  }
  deps.host.log.info("settings_saved", { by: tool, keys: keys.map((k) => k.path) });
  await store.reload();
  // The file watch may have reloaded first; what matters is that the running config is the
  // text just written, and that it loaded.
  if (store.failure !== null || store.loaded.fingerprint !== fingerprint(saved.text)) {
    return {
      text: `${tool}: forge.toml now holds the batch, but forge did not reload it: ${
        store.failure ?? "the file moved again before the reload"
      }.`,
      isError: true,
    };
  }
  return {
    text: `${tool}: the person approved; forge.toml now holds ${
      keys.map((k) => `${k.path} = ${JSON.stringify(k.after)}`).join(", ")
    } and forge reloaded it.`,
  };
}

/** How an unapproved ask ended, as the agent reads it. */
function endingWords(ending: string): string {
  switch (ending) {
    case "answered":
    case "declined":
      return "the person declined";
    case "cancelled":
      return "the call was cancelled before the person answered";
    case "session_ended":
      return "the session ended before the person answered";
    default:
      return `the ask ended (${ending}) without an answer`;
  }
}
