import { z } from "zod";
import { type ConnectorSets, GotifySubscription, SlackSubscription } from "../../protocol/mod.ts";

/** The stored subscription file: both connectors' sets, every project's. */
const StoredSubscriptions = z.object({
  version: z.literal(1),
  gotify: z.array(GotifySubscription),
  slack: z.array(SlackSubscription),
}).strict();
type Stored = z.infer<typeof StoredSubscriptions>;

/**
 * The connectors' persisted subscriptions: `<state>/connectors/subscriptions.json`.
 * A file that exists and cannot be read is never taken for an empty set (spec: home > connectors
 * "whether the stored subscription set failed to load"): `loadError` says why, every change is
 * refused, and the file is left as it was for a person to mend.
 */
export class SubscriptionStore {
  #data: Stored = { version: 1, gotify: [], slack: [] };
  #chain: Promise<void> = Promise.resolve();
  loadError: string | null = null;

  private constructor(readonly path: string) {}

  static async open(dir: string): Promise<SubscriptionStore> {
    await Deno.mkdir(dir, { recursive: true });
    const store = new SubscriptionStore(`${dir}/subscriptions.json`);
    let text: string;
    try {
      text = await Deno.readTextFile(store.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return store;
      store.loadError = `could not read ${store.path}: ${(err as Error).message}`;
      return store;
    }
    try {
      const parsed = StoredSubscriptions.safeParse(JSON.parse(text));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        store.loadError = `${store.path} is not a subscription store: ${
          issue.path.join(".") || "(top)"
        }: ${issue.message}`;
      } else store.#data = parsed.data;
    } catch (err) {
      store.loadError = `${store.path} is not JSON: ${(err as Error).message}`;
    }
    return store;
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

  /** Applies one change and writes the file (whole, then renamed into place). */
  change(fn: (data: Stored) => void): Promise<void> {
    if (this.loadError) {
      return Promise.reject(
        new Error(
          `the stored subscriptions failed to load, so forge changes none of them until the file ` +
            `is mended (${this.loadError})`,
        ),
      );
    }
    const next = structuredClone(this.#data);
    fn(next);
    const run = this.#chain.then(async () => {
      await writeJson(this.path, next);
      this.#data = next;
    });
    this.#chain = run.catch(() => {});
    return run;
  }
}

/** Writes JSON beside the target, then renames it over: a crash leaves the old file whole. */
export async function writeJson(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(value, null, 1));
  await Deno.rename(tmp, path);
}

/** Reads a JSON file, or `fallback` when there is none; a damaged one is reported. */
export async function readJson<T>(
  path: string,
  schema: z.ZodType<T>,
  fallback: T,
): Promise<{ value: T; error: string | null }> {
  try {
    const parsed = schema.safeParse(JSON.parse(await Deno.readTextFile(path)));
    return parsed.success
      ? { value: parsed.data, error: null }
      : { value: fallback, error: `${path}: ${parsed.error.issues[0].message}` };
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return { value: fallback, error: null };
    return { value: fallback, error: `${path}: ${(err as Error).message}` };
  }
}
