import { z } from "zod";
import { Lock } from "../../server/lock.ts";
import {
  type KeptFile,
  schemaParse,
  type StateKeeper,
  StateWriteError,
} from "../../server/subsystem.ts";

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

/**
 * Device enrolments on disk, kept by forge's keeper (`host.state`, mode 0600). Changes are
 * serialised; a file that does not parse is kept aside, reported, and every enrolment, release
 * and rewrite is refused in the keeper's words until it is mended (then read back) or removed.
 */
export class EnrolmentStore {
  #data: StoreFile | null = null;
  readonly #lock = new Lock();
  readonly #file: KeptFile<StoreFile>;

  constructor(keeper: StateKeeper, readonly path: string) {
    this.#file = keeper.file(path, {
      area: "the vault's device enrolments",
      parse: schemaParse(StoreFile, "an enrolment store"),
      mode: 0o600,
    });
  }

  async #load(): Promise<StoreFile> {
    if (this.#data) {
      const mended = await this.#file.writable();
      if (mended) this.#data = mended.state === "read" ? mended.value : empty();
      return this.#data;
    }
    const read = await this.#file.read();
    if (read.state === "damaged") throw new StateWriteError(this.path, "damaged", read.why);
    return (this.#data = read.state === "read" ? read.value : empty());
  }

  /** Writes the changed copy; the store moves to it only once it landed. */
  async #save(data: StoreFile): Promise<void> {
    await this.#file.write(data);
    this.#data = data;
  }

  #serial<T>(fn: (data: StoreFile) => Promise<T>): Promise<T> {
    return this.#lock.run(async () => await fn(structuredClone(await this.#load())));
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
    // A damaged store lists nothing here; home's fatal_error names the file.
    if (this.#file.damage) return [];
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

function empty(): StoreFile {
  return { version: 1, devices: {} };
}
