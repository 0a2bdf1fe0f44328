import { netWords } from "../../server/subsystem.ts";
import { ErrorCode, LogLevel, WebClient } from "@slack/web-api";
import type { SlackWorkspaceConfig } from "../../server/config/types.ts";

/** Slack's own Web API unless `slack[].api_url` names another (a proxy, a test's fake). */
export const SLACK_API_URL = "https://slack.com/api/";

type Answer = Record<string, unknown>;

const SILENT = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};

/**
 * One `[[slack]]` workspace's Web API, through `@slack/web-api` with the user token. The client is
 * told to hand rate limits back (`rejectRateLimitedCalls`) so forge waits them out itself: a 429's
 * `Retry-After` pauses this workspace's calls, the poll included, and the call is then retried.
 */
export class SlackApi {
  readonly web: WebClient;
  #pausedUntil = 0;

  constructor(
    readonly config: SlackWorkspaceConfig,
    private readonly onRateLimit: (s: number) => void,
  ) {
    const base = config.api_url ?? SLACK_API_URL;
    this.web = new WebClient(config.token, {
      slackApiUrl: base.endsWith("/") ? base : `${base}/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 500 },
      timeout: 15_000,
      // The client's own logger writes to the console; forge's log gets what matters.
      logger: SILENT,
    });
  }

  /** Calls one method; waits out a 429's Retry-After (up to three times) and retries. */
  async call(method: string, args: Record<string, unknown> = {}): Promise<Answer> {
    for (let attempt = 0;; attempt++) {
      const wait = this.#pausedUntil - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        return await this.web.apiCall(method, args) as unknown as Answer;
      } catch (err) {
        const e = err as { code?: string; retryAfter?: number; data?: { error?: string } };
        if (e.code === ErrorCode.RateLimitedError && attempt < 3) {
          const secs = e.retryAfter ?? 1;
          this.onRateLimit(secs);
          this.#pausedUntil = Date.now() + secs * 1000;
          continue;
        }
        throw new SlackError(slackWords(this.config.workspace, method, err), { cause: err });
      }
    }
  }
}

/** A Web API call that failed, its message forge's sentence (`slackWords`), Slack's in `cause`. */
export class SlackError extends Error {
  override name = "SlackError";
}

/** A Web API failure in forge's words: the method, the workspace and Slack's own error code. */
export function slackWords(workspace: string, method: string, err: unknown): string {
  const e = err as { code?: string; data?: { error?: string }; message?: string };
  if (e.code === ErrorCode.PlatformError) {
    return `Slack (${workspace}) refused ${method}: ${e.data?.error ?? "an unnamed error"}`;
  }
  if (e.code === ErrorCode.RateLimitedError) {
    return `Slack (${workspace}) kept rate-limiting ${method}; try again later`;
  }
  return `Slack (${workspace}) could not be reached for ${method}: ${netWords(err)}`;
}
