/**
 * How the composer's Return key behaves. A phone's soft keyboard has no Shift+Enter, so on a
 * coarse pointer (a touch screen) Return writes a new line and the Send button sends; at a desk
 * Return sends and Shift+Enter writes a new line.
 */

/** The key press fields the rule reads (a KeyboardEvent has them). */
export type ReturnPress = { key: string; shiftKey: boolean; isComposing?: boolean };

/** Whether this page's pointer is coarse: a touch screen, where Return writes a new line. */
export function coarsePointer(): boolean {
  return globalThis.matchMedia?.("(pointer: coarse)").matches ?? false;
}

/** Whether the press sends the prompt (else the box keeps it as typing). */
export function returnSends(press: ReturnPress, coarse: boolean): boolean {
  // A press that ends an input method's composition picks the word, it sends nothing.
  if (press.key !== "Enter" || press.shiftKey || press.isComposing) return false;
  return !coarse;
}

/** The composer's placeholder: what to do there, and how Return behaves on this device. */
export function composerHint(coarse: boolean): string {
  return coarse
    ? "Tell the seat what to do (Return writes a new line, Send sends)"
    : "Tell the seat what to do (Enter sends, Shift+Enter a new line)";
}

/** Whether this page runs on a Mac, where the Meta key is cmd (elsewhere it is Super or Windows). */
export function macPlatform(): boolean {
  const nav = globalThis.navigator as
    | (Navigator & { userAgentData?: { platform?: string } })
    | undefined;
  return /mac/i.test(nav?.userAgentData?.platform ?? nav?.platform ?? "");
}

/**
 * The push-to-talk hint beside the composer, or null when no key talks: the record's bind is off,
 * or dictation is off on the server (home > dictate.enabled), where a key would start nothing.
 * The record spells the Meta key `cmd`; off a Mac that key is Super, so it is named so.
 * spec: session > composer (bind, mode).
 */
export function pushToTalkWords(
  bind: string,
  mode: string,
  on: { dictation: boolean; mac: boolean },
): string | null {
  if (bind === "off" || !on.dictation) return null;
  const key = bind.replace("_", " ");
  return `push-to-talk: ${on.mac ? key : key.replace(/\bcmd\b/, "Super")} (${mode})`;
}
