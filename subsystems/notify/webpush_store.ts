// @deno-types="@types/web-push"
import webpush from "web-push";
import { z } from "zod";
import { Lock } from "../../server/lock.ts";
import {
  type KeptFile,
  schemaParse,
  type StateKeeper,
  StateWriteError,
} from "../../server/subsystem.ts";

const VapidFile = z.object({ public_key: z.string().min(1), private_key: z.string().min(1) })
  .strict();
type VapidFile = z.infer<typeof VapidFile>;

const StoredSubscription = z.object({
  endpoint: z.string(),
  keys: z.object({ p256dh: z.string(), auth: z.string() }).strict(),
  added_at: z.string(),
}).strict();
export type StoredSubscription = z.infer<typeof StoredSubscription>;
const SubscriptionsFile = z.object({
  version: z.literal(1),
  subscriptions: z.array(StoredSubscription),
}).strict();
type SubscriptionsFile = z.infer<typeof SubscriptionsFile>;

/**
 * Web Push's state under `<state>/notify/` (a directory only forge's user may read), kept by
 * forge's keeper (`host.state`, docs/state.md): the VAPID key pair, made on first use (never in
 * forge.toml or a settings frame; home carries the public half), and the browsers'
 * subscriptions, each file 0600. A file that does not parse is kept aside and reported in
 * `problem`, never overwritten: a damaged key file leaves Web Push without keys (no push goes,
 * no browser subscribes) and its subscriptions as they are, for the key they were made with;
 * a damaged subscription list refuses changes. Either is mended or removed by a person (a
 * removed key file is made again at the next start; browsers then subscribe again).
 */
export class WebPushStore {
  #subs: StoredSubscription[] = [];
  readonly #lock = new Lock();

  private constructor(
    readonly keys: { publicKey: string; privateKey: string } | null,
    private readonly vapid: KeptFile<VapidFile>,
    private readonly file: KeptFile<SubscriptionsFile>,
  ) {}

  static async open(keeper: StateKeeper, dir: string): Promise<WebPushStore> {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700);
    const vapid = keeper.file(`${dir}/vapid.json`, {
      area: "the Web Push keys",
      parse: schemaParse(VapidFile, "a VAPID key pair"),
      mode: 0o600,
    });
    const subsFile = keeper.file(`${dir}/subscriptions.json`, {
      area: "the Web Push subscriptions",
      parse: schemaParse(SubscriptionsFile, "a subscription list"),
      mode: 0o600,
    });
    let keys: VapidFile | null = null;
    const read = await vapid.read();
    if (read.state === "read") keys = read.value;
    else if (read.state === "missing") {
      const made = webpush.generateVAPIDKeys();
      keys = { public_key: made.publicKey, private_key: made.privateKey };
      await vapid.write(keys);
    }
    const store = new WebPushStore(
      keys ? { publicKey: keys.public_key, privateKey: keys.private_key } : null,
      vapid,
      subsFile,
    );
    const subs = await subsFile.read();
    if (subs.state === "read") store.#subs = subs.value.subscriptions;
    return store;
  }

  /** What keeps Web Push from working as stored, in the keeper's words; null when nothing. */
  get problem(): string | null {
    return this.vapid.damage ?? this.file.damage;
  }

  get subscriptions(): readonly StoredSubscription[] {
    return this.#subs;
  }

  /** Adds a subscription (replacing one with the same endpoint) and writes the list. */
  add(sub: Omit<StoredSubscription, "added_at">): Promise<void> {
    if (this.vapid.damage) {
      return Promise.reject(new StateWriteError(this.vapid.path, "damaged", this.vapid.damage));
    }
    const entry = { ...sub, added_at: new Date().toISOString() };
    return this.#change((subs) => [...subs.filter((s) => s.endpoint !== sub.endpoint), entry])
      .then(() => {});
  }

  /** Drops an endpoint; false when it was not subscribed. */
  remove(endpoint: string): Promise<boolean> {
    return this.#change((subs) => subs.filter((s) => s.endpoint !== endpoint));
  }

  /**
   * Changes run one after another, each on the list the last one left; true when it moved. A
   * mended list is read back first; a damaged one refuses in the keeper's words.
   */
  #change(fn: (subs: StoredSubscription[]) => StoredSubscription[]): Promise<boolean> {
    return this.#lock.run(async () => {
      const mended = await this.file.writable();
      if (mended) this.#subs = mended.state === "read" ? mended.value.subscriptions : [];
      const next = fn(this.#subs);
      if (next.length === this.#subs.length && next.every((s, i) => s === this.#subs[i])) {
        return false;
      }
      await this.file.write({ version: 1, subscriptions: next });
      this.#subs = next;
      return true;
    });
  }
}
