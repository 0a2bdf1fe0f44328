/**
 * Whether a host's pages let Playwright attach (driver.ts): Playwright's attach waits until every
 * page of the browser answers it, so one page that does not - a script running without end, a
 * modal dialog waiting for its answer - would keep every session's page tools from working. Each
 * page is asked through forge's own CDP connection, which stays attached throughout.
 *
 * What is done about such a page: a runaway script is stopped (`Runtime.terminateExecution`) -
 * the smallest thing that frees the others, with nothing of the page lost but the run itself;
 * closing or reloading it would lose the page, and a reload runs the script again. The page's
 * own session is told on its next call. A dialog is left for its session or a person to answer
 * (its answer is a choice the page asked them for); the sentence names it instead, as it names a
 * page that stopping the script did not free.
 */
import { slotName } from "../../protocol/mod.ts";
import type { Cdp } from "./cdp.ts";
import type { Tab } from "./tab.ts";

/** How long a page has to answer forge before it counts as not answering. */
const PROBE_MS = 2_000;

/** What the page's own session is told after its script was stopped. */
export const STOPPED_NOTE = "forge stopped a script on this page that ran without end: " +
  "Playwright, which every session's page tools use, cannot attach to the browser while a page " +
  "does not answer. The page is as the script left it.";

/** Whether the page answers an evaluate of forge's own in time (an error is an answer too). */
function answers(cdp: Cdp, tab: Tab): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), PROBE_MS)));
  const asked = cdp.send("Runtime.evaluate", { expression: "0", returnByValue: true }, tab.session)
    .then(() => true, () => true);
  return Promise.race([asked, late]).finally(() => clearTimeout(timer));
}

/** A tab as a sentence names it: its number, whose it is, its page. */
export function tabNamed(tab: Tab): string {
  const whose = tab.owner ? `${slotName(tab.owner)}'s` : "no session's";
  return `tab ${tab.number} (${whose}, ${tab.url})`;
}

/**
 * Readies the pages for Playwright's attach: stops the script of any that does not answer. The
 * sentence naming what still keeps Playwright out, or null when nothing does.
 */
export async function readyForAttach(
  cdp: Cdp,
  tabs: Tab[],
  log: (event: string, fields: Record<string, unknown>) => void,
): Promise<string | null> {
  const held = tabs.filter((t) => t.dialog);
  if (held.length > 0) {
    const which = held.map((t) =>
      `${tabNamed(t)} holds an open ${t.dialog!.kind} dialog (${JSON.stringify(t.dialog!.message)})`
    );
    return `Playwright cannot attach to the browser while ${which.join(" and ")}: its session ` +
      "answers it with browser_handle_dialog, or a person from the tab strip (forge does not " +
      "answer a page's dialog for it)";
  }
  const silent = (await Promise.all(tabs.map(async (t) => (await answers(cdp, t)) ? [] : [t])))
    .flat();
  for (const tab of silent) {
    // A page that closed meanwhile has no script left to stop: the note is still right.
    await cdp.send("Runtime.terminateExecution", {}, tab.session).catch(() => {});
    log("browser_tab_script_stopped", { tab: tab.number, url: tab.url });
    tab.notes.push(STOPPED_NOTE);
  }
  const still = (await Promise.all(silent.map(async (t) => (await answers(cdp, t)) ? [] : [t])))
    .flat();
  if (still.length === 0) return null;
  return `Playwright cannot attach to the browser while ${
    still.map(tabNamed).join(" and ")
  } does not answer: a script on it runs without end, and stopping it did not free it. Its ` +
    "session can close it (browser_close), or a person can from the tab strip";
}
