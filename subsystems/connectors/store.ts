import { z } from "zod";
import { type ConnectorSets, GotifySubscription, SlackSubscription } from "../../protocol/mod.ts";
import { Lock } from "../../server/lock.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../server/subsystem.ts";

/** The stored subscription file: both connectors' sets, every project's. */
const StoredSubscriptions = z.object({
  version: z.literal(1),
  gotify: z.array(GotifySubscription),
  slack: z.array(SlackSubscription),
}).strict();
type Stored = z.infer<typeof StoredSubscriptions>;

/**
 * The connectors' persisted subscriptions: `<state>/connectors/subscriptions.json`, kept by
 * forge's keeper (`host.state`). A file that does not parse is never taken for an empty set
 * (spec: home > connectors "whether the stored subscription set failed to load"): the keeper
 * keeps a copy aside, `loadError` says why, and every change is refused until the file is
 * mended (then it is read back) or removed.
 */
export class SubscriptionStore {
  #data: Stored = { version: 1, gotify: [], slack: [] };
  readonly #lock = new Lock();

  private constructor(readonly file: KeptFile<Stored>) {}

  static async open(keeper: StateKeeper, dir: string): Promise<SubscriptionStore> {
    const store = new SubscriptionStore(keeper.file(`${dir}/subscriptions.json`, {
      area: "the connector subscriptions",
      parse: schemaParse(StoredSubscriptions, "a subscription store"),
      indent: 1,
    }));
    const read = await store.file.read();
    if (read.state === "read") store.#data = read.value;
    return store;
  }

  get path(): string {
    return this.file.path;
  }

  /** Why the subscriptions cannot change (the file is damaged); null when they can. */
  get loadError(): string | null {
    return this.file.damage;
  }

  get gotify(): readonly GotifySubscription[] {
    return this.#data.gotify;
  }

  get slack(): readonly SlackSubscription[] {
    return this.#data.slack;
  }

  /** A project's two sets, as the board and `connector_subscriptions_changed` carry them. */
  setsOf(p: { org: string; name: string }): ConnectorSets {
    const mine = (s: { org: string; project: string }) => s.org === p.org && s.project === p.name;
    return { gotify: this.#data.gotify.filter(mine), slack: this.#data.slack.filter(mine) };
  }

  /**
   * Applies one change and writes the file whole; the sets move only once it landed. Rejects
   * with the keeper's words (a damaged file, a full disk).
   */
  change(fn: (data: Stored) => void): Promise<void> {
    return this.#lock.run(async () => {
      const mended = await this.file.writable();
      if (mended) {
        this.#data = mended.state === "read" ? mended.value : { version: 1, gotify: [], slack: [] };
      }
      const next = structuredClone(this.#data);
      fn(next);
      await this.file.write(next);
      this.#data = next;
    });
  }
}
