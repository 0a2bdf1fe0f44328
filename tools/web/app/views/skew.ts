import type { Greeting } from "../../../../protocol/mod.ts";
import { PROTOCOL_VERSION } from "../../../../protocol/mod.ts";

/** The command that updates either half of a source checkout. */
export const UPDATE_COMMAND = "git pull, then restart `tools/deno.sh task start` and `task web`";

/**
 * The version-skew sentence, or null when both halves speak one protocol. spec: The greeting >
 * "Every skew sentence says what the wire can carry. This client's build and the command that
 * updates the stale half are always named. The server's build is named where the greeting
 * carried it."
 */
export function skewSentence(
  greeting: Pick<Greeting, "version"> & { forge_version_short?: string },
  clientBuild: string,
  clientProtocol = PROTOCOL_VERSION,
): string | null {
  if (greeting.version === clientProtocol) return null;
  const server = greeting.forge_version_short
    ? `the server (build ${greeting.forge_version_short})`
    : "the server";
  const older = greeting.version < clientProtocol ? "server" : "client";
  return `This client (build ${clientBuild}) speaks socket ${clientProtocol}; ${server} speaks ` +
    `socket ${greeting.version}. Frames the ${older} does not know are not drawn. ` +
    `Update the ${older}: ${UPDATE_COMMAND}.`;
}
