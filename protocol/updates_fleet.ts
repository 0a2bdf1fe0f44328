import { z } from "zod";
import { AccountsChanged } from "./accounts.ts";
import { CronPromptAppended, CronSchedulesChanged, TasksChanged } from "./board.ts";
import {
  ConnectorSubscriptionsChanged,
  GotifyNotificationAppended,
  SlackDraft,
  SlackDraftEnding,
  SlackMessageAppended,
} from "./connectors.ts";
import {
  AskEnding,
  BrowserHandOffRequest,
  DocumentHandOffRequest,
  SettingsWriteRequest,
  TerminalHandOffRequest,
} from "./held.ts";
import { ServiceStatus, WorkState } from "./home.ts";
import { ReviewActivityNotice, ReviewThreadsChanged } from "./review.ts";
import { FileIndex, GitWorkView, IssueRef, PrInfo } from "./review_record.ts";
import { VaultAskRequest } from "./vault.ts";
import { keyed, keyless, promptUuid, type UpdateSpec, words } from "./update_spec.ts";
import { WorkerStatusChanged, WrappedPrompt } from "./workers.ts";

// The updates of the workspace around the seats: the board, workers, deliveries, held asks,
// accounts, the review watch and the server's own failure (the original's updates, by name). A
// `hears` of "home" on a keyed update makes it fleet news.

const askId = z.string().describe("the ask's id, as its card and its answer name it");
const ending = AskEnding.describe("how the ask ended");
const failure = z.string().nullable().describe(
  "the effect's words when the answered ask's effect failed (the write, the call, the post); else null",
);

/** A held kind's pending and resolved updates, both fleet news (spec: session > pending_asks). */
function held<P extends z.ZodRawShape>(what: string, card: P, answer: string) {
  return {
    pending: {
      about: `${what} waits for a person; answered with ${answer}. Re-sent restamped by id.`,
      fields: keyed({ ...card, id: askId }),
      hears: ["home"],
    },
    resolved: {
      about: `${what} ended (answered, declined, withdrawn, expired or the session ended), ` +
        "sent once an answer's effect has landed.",
      fields: keyed({ id: askId, ending, failure }),
      hears: ["home"],
    },
  } as const;
}

const browser = held(
  "A browser hand-off",
  BrowserHandOffRequest.shape,
  "respond_browser_hand_off",
);
const document = held(
  "A document hand-off",
  DocumentHandOffRequest.shape,
  "answer_document_hand_off",
);
const terminal = held(
  "A terminal hand-off",
  TerminalHandOffRequest.shape,
  "respond_terminal_hand_off",
);
const vault = held("A vault call", VaultAskRequest.shape, "respond_vault_ask");
const settings = held("A settings write", SettingsWriteRequest.shape, "respond_settings_write");

export const FLEET_UPDATES = {
  tasks_changed: {
    about: "A project's task list moved: the whole list, keyed by its lead.",
    fields: TasksChanged,
    hears: ["home", "board"],
  },
  cron_schedules_changed: {
    about: "A project's schedules moved: the whole list, keyed by its lead.",
    fields: CronSchedulesChanged,
    hears: ["board"],
  },
  connector_subscriptions_changed: {
    about: "A project's Gotify and Slack subscription sets moved, keyed by its lead.",
    fields: ConnectorSubscriptionsChanged,
    hears: ["board"],
  },
  worker_status_changed: {
    about: "A worker was added, removed or changed status (keyless: home hears it).",
    fields: WorkerStatusChanged,
    hears: ["board"],
  },
  peer_envelope_appended: {
    about: "Another agent's message was delivered into the seat as a forged user turn.",
    fields: keyed({ wrapped: WrappedPrompt, uuid: promptUuid }),
  },
  gotify_notification_appended: {
    about: "A Gotify notification was delivered into the seat as a forged user turn.",
    fields: GotifyNotificationAppended,
  },
  cron_prompt_appended: {
    about: "A schedule fired into the seat as a forged user turn.",
    fields: CronPromptAppended,
  },
  slack_message_appended: {
    about: "A Slack message was delivered into the seat as a forged user turn.",
    fields: SlackMessageAppended,
  },
  slack_post_pending: {
    about: "A Slack draft waits for a person's approval; answered with respond_slack_post.",
    fields: keyed({ draft: SlackDraft }),
    hears: ["home"],
  },
  slack_draft_resolved: {
    about: "A Slack draft ended: answered (approved or not), expired or abandoned.",
    fields: keyed({ id: askId, ending: SlackDraftEnding, failure }),
    hears: ["home"],
  },
  browser_hand_off_pending: browser.pending,
  browser_hand_off_resolved: browser.resolved,
  // v29's own held kinds, not extensions (spec: What a subject carries > session, pending_asks:
  // "a document hand-off, a terminal hand-off"); the spec does not spell their updates' names,
  // so these follow the browser's.
  document_hand_off_pending: document.pending,
  document_hand_off_resolved: document.resolved,
  terminal_hand_off_pending: terminal.pending,
  terminal_hand_off_resolved: terminal.resolved,
  vault_ask_pending: vault.pending,
  vault_ask_resolved: vault.resolved,
  settings_write_pending: settings.pending,
  settings_write_resolved: settings.resolved,
  review_activity_notice: {
    about:
      "At the end of an agent's turn, one per review round it touched: what it did and how many " +
      "comments are still open.",
    fields: ReviewActivityNotice,
  },
  review_threads_changed: {
    about:
      "A review write (a person's command or an agent's review__reply / review__resolve) moved " +
      "the branch's threads or rounds: the branch's whole `reviews` row, to every seat on it.",
    fields: ReviewThreadsChanged,
    extension: "the original's pages re-read the record on a notice; forge pushes the row itself",
  },
  service_status: {
    about: "The status page's answer moved (home's service_status); keyless, so home hears it.",
    fields: ServiceStatus,
  },
  cli_version_changed: {
    about: "The installed or latest claude version moved: a home holder reads home again (a unit " +
      "variant: its name alone).",
    fields: null,
  },
  accounts_changed: {
    about: "The account pool moved; the frame carries the pool's own state (home's accounts).",
    fields: AccountsChanged,
  },
  fatal_error: {
    about:
      "The core holds a fatal error (home's fatal_error): a config reload or a subsystem failed, " +
      "or a state file did not parse.",
    fields: keyless({
      error: z.enum(["config_invalid", "subsystem_failed", "state_damaged"]).describe(
        "what kind of failure",
      ),
      message: words,
    }),
  },
  work_changed: {
    about: "The seat's working tree moved: its git state, branch view, pull request and issues.",
    fields: keyed({
      work: WorkState,
      git: GitWorkView.nullable().describe(
        "the branch view (ahead, behind, commits); null outside a repository",
      ),
      pr: PrInfo.nullable().describe("the branch's pull request, when one is known"),
      closes: z.array(IssueRef).describe("the issues the branch closes"),
    }),
  },
  file_index_changed: {
    about: "The files of the seat's tree moved (the index a file picker reads).",
    fields: keyed({ index: FileIndex.describe("the file index, {entries}") }),
  },
} as const satisfies Record<string, UpdateSpec>;
