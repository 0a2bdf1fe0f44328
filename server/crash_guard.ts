import type { Logger } from "./log.ts";

/**
 * The process's last line. A promise rejected with nothing to hear it, or an error thrown from a
 * timer or an event handler with nothing to catch it, ends a Deno process, and every seat with
 * it; a failure of one seat, subsystem, connector or connection must never take the server down.
 * Each one is logged with its cause and the server serves on. main.ts installs it as soon as the
 * boot's log exists, before any subsystem starts (a subsystem's escaped failure during the boot is
 * no more fatal than one after it); tests do not, so there an escaped failure still fails the
 * test that caused it.
 */
export function guardProcess(target: EventTarget, log: Logger): () => void {
  const rejected = (e: Event) => {
    e.preventDefault();
    log.error("unhandled_rejection", { error: (e as PromiseRejectionEvent).reason });
  };
  const thrown = (e: Event) => {
    e.preventDefault();
    const ev = e as ErrorEvent;
    log.error("uncaught_error", { error: ev.error ?? ev.message });
  };
  target.addEventListener("unhandledrejection", rejected);
  target.addEventListener("error", thrown);
  return () => {
    target.removeEventListener("unhandledrejection", rejected);
    target.removeEventListener("error", thrown);
  };
}
