/**
 * The password check behind every snapshot the agent reads (driver_ops.ts): the values of the
 * page's password fields, read in its frames, are shown as their length wherever the snapshot
 * prints them (snapshot_lines.ts). A password a person typed in a hand-off is theirs, so the
 * check fails closed: a snapshot it cannot prove free of them is refused, never shown.
 */
import type { Frame, Page } from "playwright-core";
import { pageFunction, Refused, within } from "./driver_calls.ts";
import { lineShowingSecret, maskSecrets, showsAnyValue } from "./snapshot_lines.ts";

/** How long the check may take before the page is treated as one that cannot be checked. */
const CHECK_MS = 5_000;

/**
 * A frame's password values (open shadow roots included), and the URLs of the child frames it
 * could read the same way: a same-origin frame's document is reachable from its parent's, so one
 * call covers a page whose frames are all of its own origin.
 */
const PASSWORDS_JS = `() => {
  const values = [];
  const entered = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.localName === "input" && el.type === "password" && el.value) values.push(el.value);
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.localName === "iframe" || el.localName === "frame") {
        let doc = null;
        try { doc = el.contentDocument; } catch { /* another origin's */ }
        if (doc) { entered.push(doc.URL); walk(doc); }
      }
    }
  };
  walk(document);
  return { values, entered };
}`;

interface FrameCheck {
  values: string[];
  entered: string[];
}

function check(frame: Frame): Promise<FrameCheck> {
  return within(
    frame.evaluate(pageFunction<[]>(PASSWORDS_JS)) as Promise<FrameCheck>,
    CHECK_MS,
    "the page's password check did not answer",
  );
}

/**
 * The frames the main frame's check did not enter (another origin's, a sandboxed one): each is
 * checked on its own. Frames are matched by URL; where fewer of one URL were entered than the
 * page has, all of that URL are checked again rather than guessed at.
 */
function unentered(page: Page, entered: string[]): Frame[] {
  const seen = new Map<string, number>();
  for (const url of entered) seen.set(url, (seen.get(url) ?? 0) + 1);
  const byUrl = new Map<string, Frame[]>();
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    byUrl.set(frame.url(), [...(byUrl.get(frame.url()) ?? []), frame]);
  }
  return [...byUrl].flatMap(([url, frames]) => (seen.get(url) ?? 0) >= frames.length ? [] : frames);
}

/** The password values of every frame of the page; throws when a frame cannot be asked. */
async function passwordsOf(page: Page): Promise<string[]> {
  const main = await check(page.mainFrame());
  const rest = await Promise.all(unentered(page, main.entered).map(check));
  return [main, ...rest].flatMap((c) => c.values);
}

/**
 * The snapshot with each password field's value shown as its length, wherever it is printed.
 * Frames are asked only when some line shows a value at all. A frame that cannot be asked (it
 * navigated away or went meanwhile) is asked once more with the page's frames as they are then;
 * a page that still cannot be checked, or a snapshot that still shows a password after the mask,
 * is refused in words: nothing shows which lines a frame's fields printed.
 */
export async function maskPasswords(page: Page, yaml: string): Promise<string> {
  if (!showsAnyValue(yaml)) return yaml;
  let secrets: string[];
  try {
    // A frame that navigated under the first look is looked at once more; a second failure refuses.
    secrets = await passwordsOf(page).catch(() => passwordsOf(page));
  } catch {
    throw new Refused(
      "forge could not check every frame of this page for password fields (a frame did not " +
        "answer, or went while it was asked), so it does not show the snapshot: a password " +
        "could be in it. Take browser_snapshot again once the page has settled.",
    );
  }
  const masked = maskSecrets(yaml, secrets);
  const line = lineShowingSecret(masked, secrets);
  if (line === null) return masked;
  throw new Refused(
    `forge does not show this snapshot: its line ${line} holds a password field's value in a ` +
      "form forge cannot mask on its own line (the page prints it inside other text). Read what " +
      "you need with browser_form_state (it shows a password as its length) or browser_evaluate.",
  );
}
