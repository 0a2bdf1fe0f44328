import { type Greeting, PROTOCOL_VERSION } from "../protocol/mod.ts";
import type { ForgeConfig } from "./config/types.ts";

/**
 * The first frame every connection gets: the protocol version, forge's own version and the
 * client settings it draws with. spec: The socket > greeting. Read from the config in force, so
 * a reload's `[client]` reaches the next connection.
 */
export function greetingOf(
  c: ForgeConfig,
  build: { forge_version: string; forge_version_short: string },
): Greeting {
  const d = c.areas.dictate ?? {};
  return {
    kind: "greeting",
    version: PROTOCOL_VERSION,
    forge_version: build.forge_version,
    forge_version_short: build.forge_version_short,
    settings: {
      mark: c.client.mark,
      theme: c.client.theme,
      font: c.client.font,
      dictate: {
        styling: String(d.styling),
        structure: String(d.structure),
        context: String(d.context),
      },
    },
  };
}
