import type { LinkState } from "../net/link.ts";

/**
 * The banner's sentence for a forge the page is not talking to, naming the address it dials (the
 * `--forge` URL), so a person can check it: "Cannot reach" until that forge has greeted this page
 * once (nothing was ever connected, so nothing was dropped), with how to start one, since a
 * newcomer's first page is often opened before forge runs; "Disconnected" after.
 */
export function staleWords(
  s: { link: LinkState; retryInMs: number | null; greeted: boolean; drawn: boolean },
  address: string,
): string {
  const words = [
    s.link === "connecting"
      ? `Connecting to forge at ${address}…`
      : s.greeted
      ? `Disconnected from forge at ${address}.`
      : `Cannot reach forge at ${address}. Is it running (tools/deno.sh task start)?`,
  ];
  if (s.retryInMs !== null) words.push(`Trying again in ${Math.ceil(s.retryInMs / 1000)} s.`);
  if (s.drawn) words.push("What is drawn below is from before the drop.");
  return words.join(" ");
}
