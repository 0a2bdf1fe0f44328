/**
 * How the page driver's Worker (driver_worker.ts) makes a Playwright call: answered in forge's
 * words (`Refused`), and never open-ended - a page can stop answering (a script that runs without
 * end, a modal dialog), and a call on it must fail alone, in time, without holding up the calls
 * on every other page of the host.
 */

/** A sentence already in forge's words: passed to the agent as it is. */
export class Refused extends Error {}

/**
 * `work`, or a `Refused` saying `why` once `ms` have passed. The work left behind runs on (a
 * Playwright call cannot be taken back) and its end, whatever it is, is let go quietly.
 */
export function within<T>(work: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Refused(why)), ms);
  });
  // The race's own copy: the caller hears `work`'s failure; one after the bound has no listener.
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A Playwright page function from its source text, without running that text here: Playwright
 * sends a function's source (`String(fn)`) to the page and calls it there.
 */
export function pageFunction<A extends unknown[]>(source: string): (...args: A) => unknown {
  const fn = () => undefined;
  fn.toString = () => source;
  return fn;
}
