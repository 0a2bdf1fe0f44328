import { z } from "zod";
import type { SettingsDocument, Wire } from "../../protocol/mod.ts";
import { defineTool, type ToolHandlerOf } from "../subsystem.ts";

/** A key whose value an agent is not shown: it reads that the key is set, not what it holds. */
const SECRET_LEAF = /token|secret|password|api_key|apikey|credential/i;

/** forge's `settings` tools. */
export const SETTINGS_TOOLS = [
  defineTool({
    name: "settings__get",
    family: "settings",
    description:
      "Read forge's own settings (forge.toml): each key's path, its value and its class (live: " +
      "read on next use; next_session: read when a session opens; restart: read at boot; " +
      "not_read_yet). Pass `keys` (exact paths such as server.port) to read some, or nothing " +
      "to read them all. Secret values (tokens, passwords) are shown as set or unset only.",
    input: z.object({
      keys: z.array(z.string().min(1)).optional().describe(
        "exact key paths to read; omitted reads every key",
      ),
    }).strict(),
    roles: ["lead", "worker"],
    readOnly: true,
  }),
] as const;

/** settings__get: the keys asked for, from the document of the load in force. */
export function settingsGet(
  document: () => SettingsDocument,
): ToolHandlerOf<typeof SETTINGS_TOOLS[0]["input"]> {
  return ({ keys }) => {
    const all = document().areas.flatMap((a) => a.keys);
    const wanted = keys ?? all.map((k) => k.path);
    const unknown = wanted.filter((p) => !all.some((k) => k.path === p));
    if (unknown.length > 0) {
      return Promise.resolve({
        text: `settings__get: forge.toml has no key ${
          unknown.map((k) => `\`${k}\``).join(", ")
        }; paths are exact, such as server.port or projects.<name>.model`,
        isError: true,
      });
    }
    const rows = wanted.map((path) => {
      const k = all.find((row) => row.path === path)!;
      const value: Wire = SECRET_LEAF.test(k.leaf)
        ? (k.value === null ? null : "(set; secret values are not shown to agents)")
        : k.value;
      return { path: k.path, value, class: k.class };
    });
    return Promise.resolve({ text: JSON.stringify(rows, null, 1) });
  };
}
