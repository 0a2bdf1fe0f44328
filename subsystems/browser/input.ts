import type { BrowserGesture } from "../../protocol/mod.ts";
import type { Cdp } from "./cdp.ts";

/** CDP's modifier bit mask: Alt 1, Ctrl 2, Meta 4, Shift 8. */
function mask(mods: readonly string[] | undefined): number {
  const bit: Record<string, number> = { alt: 1, ctrl: 2, meta: 4, shift: 8 };
  return (mods ?? []).reduce((m, k) => m | (bit[k] ?? 0), 0);
}

/** Keys that carry no text: their DOM `code` and Windows virtual key code (CDP needs both). */
const SPECIAL: Record<string, { code: string; vk: number; text?: string }> = {
  Enter: { code: "Enter", vk: 13, text: "\r" },
  Backspace: { code: "Backspace", vk: 8 },
  Tab: { code: "Tab", vk: 9 },
  Escape: { code: "Escape", vk: 27 },
  Delete: { code: "Delete", vk: 46 },
  ArrowLeft: { code: "ArrowLeft", vk: 37 },
  ArrowUp: { code: "ArrowUp", vk: 38 },
  ArrowRight: { code: "ArrowRight", vk: 39 },
  ArrowDown: { code: "ArrowDown", vk: 40 },
  Home: { code: "Home", vk: 36 },
  End: { code: "End", vk: 35 },
  PageUp: { code: "PageUp", vk: 33 },
  PageDown: { code: "PageDown", vk: 34 },
  " ": { code: "Space", vk: 32, text: " " },
};

/** Presses and releases one key (`Enter`, `a`, `ArrowDown`, `Control+a` style from the tools). */
export async function pressKey(
  cdp: Cdp,
  session: string,
  key: string,
  mods: readonly string[] = [],
): Promise<void> {
  const special = SPECIAL[key];
  const modifiers = mask(mods);
  const printable = !special && [...key].length === 1;
  const code = special?.code ??
    (printable && /[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : printable ? "" : key);
  const vk = special?.vk ?? (printable ? key.toUpperCase().charCodeAt(0) : 0);
  const text = modifiers & ~8 ? undefined : special?.text ?? (printable ? key : undefined);
  await cdp.send("Input.dispatchKeyEvent", {
    type: text ? "keyDown" : "rawKeyDown",
    key,
    code,
    windowsVirtualKeyCode: vk,
    modifiers,
    ...(text ? { text, unmodifiedText: text } : {}),
  }, session);
  await cdp.send(
    "Input.dispatchKeyEvent",
    { type: "keyUp", key, code, windowsVirtualKeyCode: vk, modifiers },
    session,
  );
}

/** A real mouse click at a viewport point: move, press, release. */
export async function clickAt(
  cdp: Cdp,
  session: string,
  x: number,
  y: number,
  opts: { button?: string; clicks?: number; modifiers?: readonly string[] } = {},
): Promise<void> {
  const button = opts.button ?? "left";
  const modifiers = mask(opts.modifiers);
  await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, modifiers }, session);
  for (let i = 1; i <= (opts.clicks ?? 1); i++) {
    for (const type of ["mousePressed", "mouseReleased"]) {
      await cdp.send(
        "Input.dispatchMouseEvent",
        { type, x, y, button, clickCount: i, modifiers },
        session,
      );
    }
  }
}

/** Turns one person's gesture into the page's input. spec: browser_input. */
export async function dispatchGesture(
  cdp: Cdp,
  session: string,
  g: BrowserGesture,
): Promise<void> {
  switch (g.type) {
    case "press":
      return await clickAt(cdp, session, g.x, g.y, g);
    case "move":
      await cdp.send("Input.dispatchMouseEvent", {
        type: "mouseMoved",
        x: g.x,
        y: g.y,
        modifiers: mask(g.modifiers),
      }, session);
      return;
    case "wheel":
      await cdp.send("Input.dispatchMouseEvent", {
        type: "mouseWheel",
        x: g.x,
        y: g.y,
        deltaX: g.dx,
        deltaY: g.dy,
        modifiers: mask(g.modifiers),
      }, session);
      return;
    case "key":
      return await pressKey(cdp, session, g.key, g.modifiers);
    case "text":
      await cdp.send("Input.insertText", { text: g.text }, session);
      return;
  }
}
