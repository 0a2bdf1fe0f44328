/**
 * home's `service_status`: the status page's last answer, polled on a slow timer. spec: What a
 * subject carries > home (`service_status`: "the statuspage's last answer, null for healthy or
 * unreachable"), and What a client receives > update (the service status arrives only through
 * the keyless arm). `[server] status_url` names a Statuspage `status.json`; an empty string turns
 * the poll off.
 */
import { z } from "zod";
import type { ServiceStatus } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { fieldsArea, type Host } from "../subsystem.ts";

/** How often the page is read: an outage lasts minutes to hours, and the page is someone else's. */
export const STATUS_POLL_MS = 5 * 60_000;

/**
 * Runs `tick` now and then on a timer until stopped; the default is every STATUS_POLL_MS. Tests
 * inject one that ticks when they say so, so no test waits on the clock.
 */
export type StatusSchedule = (tick: () => Promise<void>) => { stop(): void };

export const everyFiveMinutes: StatusSchedule = (tick) => {
  let running = tick();
  const timer = setInterval(() => {
    // A slow page never stacks reads: the next waits for the last.
    running = running.then(tick);
  }, STATUS_POLL_MS);
  return { stop: () => clearInterval(timer) };
};

/** A Statuspage `status.json`: `status.indicator` is none, minor, major, critical or maintenance. */
const StatusJson = z.object({
  status: z.object({
    indicator: z.enum(["none", "minor", "major", "critical", "maintenance"]),
    description: z.string(),
  }),
});

/** The page's answer as the update carries it; `unreachable` when it could not be read. */
export async function readStatusPage(url: string, signal: AbortSignal): Promise<ServiceStatus> {
  let body: unknown;
  try {
    const res = await fetch(url, { signal });
    if (!res.ok) {
      await res.body?.cancel();
      return { severity: "unreachable", message: `the status page answered HTTP ${res.status}` };
    }
    body = await res.json();
  } catch (err) {
    return {
      severity: "unreachable",
      message: `the status page could not be read: ${(err as Error).message}`,
    };
  }
  const page = StatusJson.safeParse(body);
  if (!page.success) {
    return {
      severity: "unreachable",
      message: "the status page's answer is not a Statuspage status.json",
    };
  }
  return { severity: page.data.status.indicator, message: page.data.status.description };
}

/**
 * Holds the page's last answer; home's field is it when it names trouble, else null. Each time
 * that field moves, the answer is pushed as the keyless `service_status {severity, message}`, so
 * a page holding the home hears an outage, and hears it end (severity `none`, or `unreachable`).
 */
export class StatusPoller {
  #last: ServiceStatus = { severity: "none", message: "" };
  #stop = new AbortController();

  constructor(
    private readonly url: () => string,
    private readonly emit: (status: ServiceStatus) => void,
    private readonly log: Logger,
  ) {}

  /** home's `service_status`: null for healthy or unreachable. */
  home(): ServiceStatus | null {
    return troubled(this.#last) ? this.#last : null;
  }

  async poll(): Promise<void> {
    const url = this.url();
    if (url === "" || this.#stop.signal.aborted) return;
    const next = await readStatusPage(
      url,
      AbortSignal.any([this.#stop.signal, AbortSignal.timeout(15_000)]),
    );
    if (this.#stop.signal.aborted) return;
    const before = this.home();
    if (next.severity === "unreachable" && next.severity !== this.#last.severity) {
      this.log.info("service_status_unreachable", { url, why: next.message });
    }
    this.#last = next;
    const after = this.home();
    if (JSON.stringify(before) !== JSON.stringify(after)) this.emit(next);
  }

  /** Ends a read in flight; no later poll reads. */
  stop(): void {
    this.#stop.abort();
  }
}

function troubled(s: ServiceStatus): boolean {
  return s.severity !== "none" && s.severity !== "unreachable";
}

/** The core area that runs the poll and lays `service_status` over the home's default. */
export function serviceStatusArea(schedule: StatusSchedule = everyFiveMinutes) {
  return fieldsArea("service_status", "the status page's last answer, on home", (host: Host) => {
    const poller = new StatusPoller(
      () => host.config().server.status_url,
      (status) => host.emit({ name: "service_status", fields: status }),
      host.log,
    );
    const timer = schedule(() =>
      poller.poll().catch((error) => host.log.warn("service_status_failed", { error }))
    );
    return {
      homeFields: () => ({ service_status: poller.home() }),
      stop: () => {
        timer.stop();
        poller.stop();
        return Promise.resolve();
      },
    };
  });
}
