// @deno-types="@types/web-push"
import webpush from "web-push";
import { z } from "zod";
import { DurableJson } from "../../server/board/durable.ts";

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

/** Turns a zod refusal into the sentence DurableJson reports. */
const parser = <T>(schema: z.ZodType<T>, what: string) => (raw: unknown): T => {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`it is not ${what}: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
};

/**
 * Web Push's state under `<state>/notify/` (a directory only forge's user may read): the VAPID
 * key pair, made on first use (never in forge.toml or a settings frame; home carries the public
 * half), and the browsers' subscriptions. Each file is written whole and durably
 * (server/board/durable.ts: temp, fsync, rename, fsync of the directory). A file that does not
 * parse is kept aside as `<name>.damaged-<ms>` and reported in `problem`, never overwritten; a
 * damaged key file takes the subscriptions aside with it, since they were made against its key.
 */
export class WebPushStore {
  #subs: StoredSubscription[] = [];
  #chain: Promise<void> = Promise.resolve();
  /** What was kept aside at open, in words; null when both files read cleanly. */
  problem: string | null = null;

  private constructor(
    readonly keys: { publicKey: string; privateKey: string },
    private readonly file: DurableJson<SubscriptionsFile>,
  ) {}

  static async open(dir: string): Promise<WebPushStore> {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700);
    const problems: string[] = [];
    const vapid = new DurableJson(`${dir}/vapid.json`, parser(VapidFile, "a VAPID key pair"));
    const subsFile = new DurableJson(
      `${dir}/subscriptions.json`,
      parser(SubscriptionsFile, "a subscription list"),
    );
    let keys: VapidFile | null = null;
    const read = await vapid.read();
    if (read.state === "read") keys = read.value;
    else if (read.state === "unreadable") {
      problems.push(
        `${read.why}; kept aside as ${await keepAside(vapid.path)} with a new key pair`,
      );
      const subs = await subsFile.read();
      if (subs.state !== "missing") {
        problems.push(
          `the subscriptions made with the old key were kept aside as ${await keepAside(
            subsFile.path,
          )}; each browser subscribes again`,
        );
      }
    }
    if (keys === null) {
      const made = webpush.generateVAPIDKeys();
      keys = { public_key: made.publicKey, private_key: made.privateKey };
      await vapid.write(keys);
    }
    const store = new WebPushStore(
      { publicKey: keys.public_key, privateKey: keys.private_key },
      subsFile,
    );
    const subs = await subsFile.read();
    if (subs.state === "read") store.#subs = subs.value.subscriptions;
    else if (subs.state === "unreadable") {
      problems.push(`${subs.why}; kept aside as ${await keepAside(subsFile.path)}`);
    }
    store.problem = problems.length ? problems.join("; ") : null;
    return store;
  }

  get subscriptions(): readonly StoredSubscription[] {
    return this.#subs;
  }

  /** Adds a subscription (replacing one with the same endpoint) and writes the list. */
  add(sub: Omit<StoredSubscription, "added_at">): Promise<void> {
    const entry = { ...sub, added_at: new Date().toISOString() };
    return this.#change((subs) => [...subs.filter((s) => s.endpoint !== sub.endpoint), entry])
      .then(() => {});
  }

  /** Drops an endpoint; false when it was not subscribed. */
  remove(endpoint: string): Promise<boolean> {
    return this.#change((subs) => subs.filter((s) => s.endpoint !== endpoint));
  }

  /** Changes run one after another, each on the list the last one left; true when it moved. */
  #change(fn: (subs: StoredSubscription[]) => StoredSubscription[]): Promise<boolean> {
    const run = this.#chain.then(async () => {
      const next = fn(this.#subs);
      if (next.length === this.#subs.length && next.every((s, i) => s === this.#subs[i])) {
        return false;
      }
      await this.file.write({ version: 1, subscriptions: next });
      this.#subs = next;
      return true;
    });
    this.#chain = run.then(() => {}, () => {});
    return run;
  }
}

/** Renames a damaged file out of the way; answers the name it now has. */
async function keepAside(path: string): Promise<string> {
  const aside = `${path}.damaged-${Date.now()}`;
  await Deno.rename(path, aside);
  return aside.slice(aside.lastIndexOf("/") + 1);
}
