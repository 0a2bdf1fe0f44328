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
import { every, type PollSchedule } from "./poll.ts";

/** How often the page is read: an outage lasts minutes to hours, and the page is someone else's. */
export const STATUS_POLL_MS = 5 * 60_000;

/** Runs the poll; server/areas/poll.ts. */
export type StatusSchedule = PollSchedule;

export const everyFiveMinutes: StatusSchedule = every(STATUS_POLL_MS);

/** A Statuspage `status.json`: `status.indicator` is none, minor, major, critical or maintenance. */
const StatusJson = z.object({
  status: z.object({
    indicator: z.enum(["none", "minor", "major", "critical", "maintenance"]),
    description: z.string(),
  }),
});

/** How long one read of the page may take before it counts as unreachable. */
export const STATUS_READ_MS = 15_000;

/**
 * One read of the page: the answer as the update carries it (`unreachable` when it could not be
 * read, in forge's words naming what went wrong), and for the log only, the fetch's or the
 * parser's own error when there was one.
 */
export async function readStatusPage(
  url: string,
  signal: AbortSignal,
): Promise<{ status: ServiceStatus; cause?: string }> {
  const where = pageName(url);
  const unreachable = (message: string, cause?: unknown) => ({
    status: { severity: "unreachable" as const, message },
    ...(cause === undefined ? {} : { cause: String(cause) }),
  });
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (err) {
    return (err as Error)?.name === "TimeoutError"
      ? unreachable(
        `the status page at ${where} did not answer within ${STATUS_READ_MS / 1000} s`,
        err,
      )
      : unreachable(`the status page at ${where} could not be reached`, err);
  }
  if (!res.ok) {
    // The body is not read: a stream already over needs no cancel, and the status says it all.
    await res.body?.cancel().catch(() => {});
    return unreachable(`the status page at ${where} answered HTTP ${res.status}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await res.text());
  } catch (err) {
    return unreachable(`the status page at ${where} answered with something that is not JSON`, err);
  }
  const page = StatusJson.safeParse(body);
  if (!page.success) {
    return unreachable(
      `the status page at ${where} answered JSON that is not a Statuspage status.json`,
      page.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  }
  return {
    status: { severity: page.data.status.indicator, message: page.data.status.description },
  };
}

/** The page's host, as a person recognises it (never the path or any credential in the URL). */
function pageName(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    // A URL that does not parse is named by its key: the loader already refused its text.
    return "status_url";
  }
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
    const read = await readStatusPage(
      url,
      AbortSignal.any([this.#stop.signal, AbortSignal.timeout(STATUS_READ_MS)]),
    );
    if (this.#stop.signal.aborted) return;
    const next = read.status;
    const before = this.home();
    if (next.severity === "unreachable" && next.severity !== this.#last.severity) {
      this.log.info("service_status_unreachable", { why: next.message, cause: read.cause });
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
    // A restart-class key: the launcher allowed the boot value's host, so the boot value is read.
    const url = host.config().server.status_url;
    const poller = new StatusPoller(
      () => url,
      (status) => host.emit({ name: "service_status", fields: status }),
      host.log,
    );
    const timer = schedule(
      () => poller.poll(),
      (error) => host.log.warn("service_status_failed", { error: String(error) }),
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
