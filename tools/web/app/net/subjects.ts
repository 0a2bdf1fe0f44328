import type { NamedSubject, UpdateOf, Wire } from "../../../../protocol/mod.ts";
import type { ClientCore } from "./client_core.ts";
import {
  narrowBoard,
  narrowDictateModels,
  narrowExtensions,
  narrowHome,
  narrowUsage,
} from "./narrow.ts";
import type { PLUGIN_UPDATES } from "./updates.ts";

/** How many plugin and model outcomes the pages keep in words. */
const KEEP_NEWS = 8;

type Keyless = UpdateOf<
  | "accounts_changed"
  | "dictate_models_changed"
  | "service_status"
  | (typeof PLUGIN_UPDATES)[number]
>;

/**
 * The keyless subjects a page draws (home, board, usage, extensions, dictate_models): each
 * snapshot narrowed with protocol/'s schema into the store, and the keyless updates that carry
 * their own state applied in place. spec: What a subject carries; update ("the frame carries the
 * pool's own state, so a usage-only move is applied instead of read"); extensions ("The read and
 * the frames are one shape").
 */
export class Subjects {
  #bootId: string | null = null;

  constructor(private readonly client: ClientCore) {}

  /** A keyless snapshot. Answers whether the home says the server restarted under the page. */
  snapshot(subject: NamedSubject, data: Wire): { restarted: boolean } | null {
    const s = this.client.state;
    switch (subject) {
      case "home": {
        const home = narrowHome(data);
        if (!home.ok) return this.#off(home.why);
        const restarted = this.#bootId !== null && home.data.boot_id !== this.#bootId;
        this.#bootId = home.data.boot_id;
        if (!s.home) performance.mark("forge:home");
        s.home = home.data;
        return { restarted };
      }
      case "board": {
        const board = narrowBoard(data);
        if (board.ok) s.board = board.data;
        else this.#off(board.why);
        return null;
      }
      case "extensions": {
        const ext = narrowExtensions(data);
        if (ext.ok) s.extensions = ext.data;
        else this.#off(ext.why);
        return null;
      }
      case "dictate_models": {
        const models = narrowDictateModels(data);
        if (models.ok) s.models = models.data;
        else this.#off(models.why);
        return null;
      }
      case "usage": {
        const usage = narrowUsage(data);
        if (usage.ok) s.usage = usage.data;
        else this.#off(usage.why);
        return null;
      }
    }
  }

  /** A keyless update that carries its subject's own state. */
  update(u: Keyless): void {
    const s = this.client.state;
    switch (u.name) {
      case "accounts_changed":
        if (s.home) s.home = { ...s.home, accounts: u.fields.accounts };
        return;
      case "dictate_models_changed":
        s.models = u.fields.models;
        return;
      // spec: home > service_status - the status page's answer, null for healthy or unreachable.
      case "service_status": {
        const trouble = u.fields.severity !== "none" && u.fields.severity !== "unreachable";
        if (s.home) s.home = { ...s.home, service_status: trouble ? u.fields : null };
        return;
      }
      case "plugins_inventory_updated":
        s.extensions = { ...this.#ext(), snapshot: u.fields.snapshot, lsp: u.fields.lsp };
        return;
      case "plugins_update_run_progress":
        s.extensions = { ...this.#ext(), update_run: u.fields.run };
        return;
      case "plugins_update_run_finished": {
        const ext = this.#ext();
        s.extensions = {
          ...ext,
          update_run: u.fields.run,
          snapshot: u.fields.snapshot ?? ext.snapshot,
        };
        return;
      }
      case "plugins_cli_action_succeeded":
        s.extensions = { ...this.#ext(), snapshot: u.fields.result.snapshot };
        return this.#news(true, u.fields.result.message);
      case "plugins_cli_action_failed":
        return this.#news(false, u.fields.message);
      case "plugins_inventory_refresh_failed":
        return this.#news(false, `The plugin inventory could not be read: ${u.fields.message}`);
    }
  }

  #ext() {
    return this.client.state.extensions ?? { snapshot: null, lsp: [], update_run: null };
  }

  #news(ok: boolean, text: string): void {
    const s = this.client.state;
    s.pluginNews = [...s.pluginNews.slice(-(KEEP_NEWS - 1)), { ok, text, at: Date.now() }];
  }

  #off(why: string): null {
    this.client.offSchema(why);
    return null;
  }
}
