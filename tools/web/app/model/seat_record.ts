import {
  currentModel,
  type DictateNotice,
  type DictateOverrides,
  type QueuedPrompt,
  type SlashCommand,
  type Slot,
  type TerminalSummary,
  type Wire,
} from "../../../../protocol/mod.ts";
import type { Session } from "../net/narrow.ts";
import type { ReadUpdate } from "../net/updates.ts";
import { applyAskUpdate, type Ask, asksFromSnapshot, resolvedNotice } from "./asks.ts";
import { SeatPanels } from "./seat_panels.ts";
import { SentPrompts } from "./sent_prompts.ts";
import { TurnBook } from "./turns.ts";

/** A seat's own words kept on its page: an account rotation, a refused credential, a notice. */
export interface SeatNotice {
  severity: string;
  text: string;
  at: number;
}

/** How many notices a seat keeps on screen (the oldest go first). */
const KEEP_NOTICES = 20;

/**
 * The seat's record as the page draws it: the snapshot's fields, moved by the updates that
 * change them. spec: What a subject carries > session (header, state, composer, pending_asks,
 * processes, background_tasks, terminal, account); the rotation notices the gateway sends as
 * `notice` updates are all kept, newest last, because a person reads why the seat moved.
 */
export class SeatRecord {
  record: Session | null = null;
  asks: Ask[] = [];
  queue: QueuedPrompt[] = [];
  terminal: TerminalSummary | null = null;
  processes: Session["processes"] = null;
  backgroundTasks: Record<string, Wire>[] = [];
  /** The model the seat runs: the header's, or the newest init frame's bare id. */
  model: string | null = null;
  permissionMode: string | null = null;
  context: { percent: number | null; max_tokens: number | null } | null = null;
  /** The account the seat's requests go out under now. */
  account: string | null = null;
  /** The upstream refused the seat's credential: the server's advice for a sign-in. */
  authRequired: string | null = null;
  notices: SeatNotice[] = [];
  /** How many clients have voice on for the seat (this one too while its switch is on). */
  listeners = 0;
  /** The seat's own dictation axes, each absent where the server's default holds. */
  overrides: DictateOverrides = {};
  /** The last landed take nobody sent, carried across a reload (composer > notice). */
  landed: DictateNotice | null = null;
  /** The schedule each fired prompt came from, by the prompt's id (spec: page > cron_names). */
  cronNames = new Map<string, string>();
  /** The CLI is compacting the conversation (session > composer; its status frames). */
  compacting = false;
  /** The CLI's own commands, as it last advertised them (session > slash_commands). */
  slashCommands: SlashCommand[] = [];
  /** Why the seat failed, in forge's words: the record's `failure`, or a `connection_failed`. */
  failure: string | null = null;
  /** This page's prompts forge has not answered yet, and the words of one it refused. */
  readonly prompts = new SentPrompts();
  /** Its subagent cards, MCP servers, monitors and the call outputs asked for. */
  readonly panels = new SeatPanels();
  /** Rises on every change, so a view can tell it must draw again. */
  version = 0;
  protected book = new TurnBook();

  constructor(readonly slot: Slot) {}

  get turnInFlight(): boolean {
    return this.book.inFlight;
  }

  protected takeRecord(d: Session): void {
    this.record = d;
    this.asks = asksFromSnapshot(d.pending_asks);
    this.queue = d.state.queue;
    this.terminal = d.terminal;
    this.processes = d.processes;
    this.backgroundTasks = d.background_tasks;
    this.model = d.header.model?.catalog_id ?? d.header.model?.resolved_id ?? null;
    this.permissionMode = d.header.permission_mode;
    this.context = d.header.context;
    this.account = d.account?.display_name ?? this.account;
    this.listeners = d.state.voice_listeners;
    this.landed = d.composer.notice;
    this.overrides = d.state.dictate_overrides ?? {};
    this.book.inFlight = d.header.turn_in_flight;
    this.failure = d.failure?.message ?? null;
    this.slashCommands = d.slash_commands;
    this.compacting = d.composer.compacting || d.composer.machine === "compacting";
    this.panels.take(d);
  }

  /**
   * The catalogue row an init frame's bare id names, by the header's own rule (spec: session >
   * header; protocol/current_model.ts): `default` and `opus` can resolve to the same id, and the
   * page names the row the header would, so a turn does not move the picker. The id itself when
   * no row has it.
   */
  #catalogId(resolved: string): string {
    const rows = this.record?.header.available_models ?? [];
    return currentModel(resolved, null, rows, true)?.catalog_id ?? resolved;
  }

  /** Applies one update about this seat. */
  protected apply(u: ReadUpdate): void {
    this.version++;
    if (u.known === "invalid") return;
    // Any held ask's card is drawn from its bag, so a kind this page has no drawing of is held.
    this.asks = applyAskUpdate(this.asks, { name: u.name, fields: u.bag });
    const ended = resolvedNotice({ name: u.name, fields: u.bag });
    if (ended) this.#note(ended.severity, ended.text);
    if (u.known === false || this.panels.apply(u)) return;
    switch (u.name) {
      case "chat_appended": {
        const msg = u.fields.msg;
        if (msg.type === "system" && msg.subtype === "init") {
          if (typeof msg.model === "string") this.model = this.#catalogId(msg.model);
          if (typeof msg.permissionMode === "string") this.permissionMode = msg.permissionMode;
        }
        // The CLI says `status: "compacting"` as it begins and another status (null) when done;
        // the boundary it writes is the compaction finished.
        if (msg.type === "system" && msg.subtype === "status") {
          this.compacting = msg.status === "compacting";
        }
        if (msg.type === "system" && msg.subtype === "compact_boundary") this.compacting = false;
        this.prompts.heard(msg);
        return this.book.add(msg);
      }
      case "prompt_queued": {
        const { uuid, source, text } = u.fields;
        this.queue = [...this.queue, { uuid, source, text }];
        return;
      }
      case "prompt_lifecycle":
        if (u.fields.state !== "queued") this.#dequeue(u.fields.uuid);
        return;
      case "prompt_cancel_resolved":
        if (u.fields.cancelled) this.#dequeue(u.fields.uuid);
        return;
      case "turn_complete":
      case "turn_error":
      case "turn_cancelled":
        this.book.inFlight = false;
        this.compacting = false;
        return;
      // A CLI that died mid-turn, or one being closed, runs no turn: nothing is left to cancel.
      case "connection_failed":
        this.book.inFlight = false;
        this.compacting = false;
        this.failure = u.fields.message;
        return;
      case "releasing":
        this.book.inFlight = false;
        this.compacting = false;
        return;
      case "spawning":
      case "connected":
      case "session_replaced":
        this.failure = null;
        return;
      case "context_usage_snapshot":
        this.context = {
          percent: u.fields.percentage ?? null,
          max_tokens: u.fields.max_tokens ?? null,
        };
        return;
      case "processes_changed":
        this.processes = u.fields.snapshot;
        return;
      case "background_tasks_changed":
        this.backgroundTasks = u.fields.tasks;
        return;
      case "terminal_changed":
        this.terminal = u.fields.terminal;
        return;
      // forge's `name` is the one cron_names carries; v29's description is the next best.
      case "cron_prompt_appended": {
        const name = u.fields.name ?? u.fields.description;
        if (name) this.cronNames.set(u.fields.uuid, name);
        return;
      }
      case "slash_commands_changed":
        this.slashCommands = u.fields.commands;
        return;
      case "notice":
        return this.#note(u.fields.severity, u.fields.text);
      case "forge_account_identity":
        this.account = u.fields.display_name;
        this.authRequired = null;
        return;
      case "auth_required":
        this.authRequired = u.fields.method_description;
        return this.#note("error", u.fields.method_description);
      case "voice_mode_state":
        this.listeners = u.fields.listeners;
        return;
      case "dictate_overrides":
        this.overrides = u.fields.overrides;
        return;
    }
  }

  #dequeue(uuid: string): void {
    this.queue = this.queue.filter((q) => q.uuid !== uuid);
  }

  #note(severity: string, text: string): void {
    this.notices = [...this.notices.slice(-(KEEP_NOTICES - 1)), { severity, text, at: Date.now() }];
  }
}
