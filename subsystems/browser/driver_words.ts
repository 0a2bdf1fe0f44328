/**
 * Playwright's failures said in forge's words (driver.ts). A refusal the ops already phrased
 * passes through; a timeout is explained by the last reason Playwright's call log gives (the
 * element is disabled, hidden, covered, moving); anything else keeps Playwright's first line
 * after forge's own framing, so the agent reads what went wrong and what to do.
 */
import type { DriverOp } from "./driver_messages.ts";
import { Refused } from "./driver_calls.ts";

/** What each operation was trying to do, for "could not <what>". */
const DOING: Record<DriverOp, string> = {
  snapshot: "read the page's accessibility snapshot",
  click: "click the element",
  hover: "hover over the element",
  type: "type into the element",
  fillForm: "fill the form",
  select: "select the option",
  drag: "drag between the elements",
  drop: "drop onto the element",
  press: "press the key",
  evaluate: "evaluate the function",
  waitFor: "wait for the page",
  formState: "read the form",
  shot: "take the element's screenshot",
  runCode: "run the code",
};

/** The operations that run the agent's own script in the page, whose exception is the page's. */
const PAGE_SCRIPTS = new Set<DriverOp>(["evaluate", "waitFor", "runCode"]);

/** A reason in Playwright's call log, and how forge says it. */
const REASONS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/element is not enabled/, () => "it is disabled"],
  [/element is not visible/, () => "it is not visible"],
  [/element is not editable/, () => "it is read-only"],
  [/element is not stable/, () => "it keeps moving"],
  [/element is outside of the viewport/, () => "it lies outside the page's viewport"],
  [/(<[^>]+>.*?) intercepts pointer events/, (m) => `another element covers it: ${m[1]}`],
  [/did not find some options/, () => "no option matches the values given"],
  [
    /not an <input>, <textarea>|not an <input>|is not a <select>|not a checkbox or radio/i,
    () => "it is not a control that takes that input",
  ],
];

/**
 * The sentence an ask answers with when its bound ran out: the page did not let it finish - a
 * script on it running without end, a dialog it holds - or Playwright did not.
 */
export function tooSlow(op: DriverOp, ms: number): string {
  return `could not ${DOING[op] ?? op} within ${Math.round(ms / 100) / 10} s: the page did not ` +
    "let it finish (a script on it may be running without end, or a dialog holding it)";
}

/** The sentence an ask that failed answers with. */
export function explain(err: unknown, op: DriverOp): string {
  if (err instanceof Refused) return err.message;
  const text = err instanceof Error ? err.message : String(err);
  const what = DOING[op] ?? op;
  if (/Target crashed/i.test(text)) {
    return `could not ${what}: the tab's page crashed (its renderer is gone); browser_navigate ` +
      "loads a page in it again, or browser_close closes it";
  }
  if (/Target page, context or browser has been closed|Target closed/i.test(text)) {
    return `could not ${what}: the tab closed or navigated away while the call ran`;
  }
  const because = reasonIn(text);
  const timeout = /Timeout (\d+)ms exceeded/.exec(text);
  if (timeout) {
    const secs = Number(timeout[1]) / 1000;
    return because
      ? `could not ${what} within ${secs} s: ${because}`
      : `could not ${what} within ${secs} s; take a new browser_snapshot and check the element`;
  }
  if (because) return `could not ${what}: ${because}`;
  // A library message with no reason forge knows: its first line, without the API's name.
  const first = text.split("\n")[0].replace(/^[\w.]+: /, "").replace(/^Error: /, "");
  // The agent's own script threw in the page: the page's words, said to be the page's.
  if (PAGE_SCRIPTS.has(op)) return `could not ${what}: the page threw: ${first}`;
  return `could not ${what}: ${first}`;
}

function reasonIn(text: string): string | null {
  // The call log lists attempts in order: the last reason given is the one that held.
  const lines = text.split("\n").reverse();
  for (const line of lines) {
    for (const [re, say] of REASONS) {
      const m = line.match(re);
      if (m) return say(m);
    }
  }
  return null;
}
