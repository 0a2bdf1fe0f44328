import { z } from "zod";

// The enrolment store: each device's wrapped blob per purpose, and the stamps the settings
// page lists. Only blobs a client's platform authenticator wrapped are kept - never the
// material in the clear - and the file is written 0600 by rename, so a reader never sees half.

const Row = z.object({
  blob: z.string(),
  enrolled_at: z.string(),
  last_release_at: z.string().nullable(),
});
const StoreFile = z.object({
  version: z.literal(1),
  devices: z.record(z.string(), z.record(z.string(), Row)),
});
type StoreFile = z.infer<typeof StoreFile>;

/** Device enrolments on disk. Writes are serialised; a damaged file is refused in words. */
export class EnrolmentStore {
  #data: StoreFile | null = null;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async #load(): Promise<StoreFile> {
    if (this.#data) return this.#data;
    let text: string;
    try {
      text = await Deno.readTextFile(this.path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return (this.#data = { version: 1, devices: {} });
      throw new Error(`the enrolment store ${this.path} could not be read`);
    }
    const parsed = StoreFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`the enrolment store ${this.path} is not forge's format`);
    return (this.#data = parsed.data);
  }

  async #save(data: StoreFile): Promise<void> {
    const dir = this.path.replace(/\/[^/]*$/, "");
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(data), { mode: 0o600 });
    await Deno.chmod(tmp, 0o600); // the umask may have narrowed nothing, but never widened
    await Deno.rename(tmp, this.path);
  }

  #serial<T>(fn: (data: StoreFile) => Promise<T>): Promise<T> {
    const run = this.#chain.then(async () => await fn(await this.#load()));
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Stores (or replaces) a device's blob for a purpose. */
  enrol(device: string, purpose: string, blob: string): Promise<void> {
    return this.#serial(async (data) => {
      const rows = data.devices[device] ?? (data.devices[device] = {});
      rows[purpose] = { blob, enrolled_at: new Date().toISOString(), last_release_at: null };
      await this.#save(data);
    });
  }

  /** The stored blob, stamping the release; null when the device never enrolled the purpose. */
  release(device: string, purpose: string): Promise<string | null> {
    return this.#serial(async (data) => {
      const row = data.devices[device]?.[purpose];
      if (!row) return null;
      row.last_release_at = new Date().toISOString();
      await this.#save(data);
      return row.blob;
    });
  }

  /** Replaces an existing row's blob; never creates one. True when a row was rewritten. */
  rewrite(device: string, purpose: string, blob: string): Promise<boolean> {
    return this.#serial(async (data) => {
      const row = data.devices[device]?.[purpose];
      if (!row) return false;
      row.blob = blob;
      await this.#save(data);
      return true;
    });
  }

  /** The home `biometric` row: devices, purposes and stamps; never a blob. */
  async listing(): Promise<
    {
      device: string;
      purposes: { purpose: string; enrolled_at: string; last_release_at: string | null }[];
    }[]
  > {
    const data = await this.#serial((d) => Promise.resolve(d));
    return Object.entries(data.devices).map(([device, rows]) => ({
      device,
      purposes: Object.entries(rows).map(([purpose, r]) => ({
        purpose,
        enrolled_at: r.enrolled_at,
        last_release_at: r.last_release_at,
      })),
    }));
  }
}
