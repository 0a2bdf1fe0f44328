import { createHash } from "node:crypto";
import { z } from "zod";
import { InstalledModel } from "../../../protocol/mod.ts";
import {
  ioWords,
  type KeptFile,
  schemaParse,
  type StateKeeper,
} from "../../../server/subsystem.ts";
import type { CatalogueRow } from "./catalogue.ts";

/**
 * One model this machine installed: protocol/'s InstalledModel (spec: dictate_models >
 * installed), its instant kept in epoch ms until the read turns it into the wire's. `url` is the
 * local file it was copied from (no model here is downloaded).
 */
const InstalledRecord = InstalledModel.extend({ at: z.number() });
export type InstalledRecord = z.infer<typeof InstalledRecord>;

const Stored = z.object({
  installed: z.array(InstalledRecord),
  /** The installed file each role runs instead of its compiled pin. */
  picks: z.object({ dictation: z.object({ file: z.string(), at: z.number() }).optional() }),
});
type Stored = z.infer<typeof Stored>;

const PROGRESS_EVERY = 8 * 1024 * 1024;

/**
 * `models_dir` and its record (`installed.json` beside the models, kept by forge's keeper):
 * local-file installs with the digest checked while copying, uninstalls, and each role's pick.
 * Every refusal is a sentence. A damaged record is kept aside and reported, and every install,
 * uninstall and pick is refused in the keeper's words until it is mended or removed.
 */
export class ModelStore {
  #stored: Stored = { installed: [], picks: {} };

  private constructor(
    readonly dir: string | null,
    private readonly file: KeptFile<Stored> | null,
  ) {}

  static async open(keeper: StateKeeper, dir: string | null): Promise<ModelStore> {
    const file = dir
      ? keeper.file(`${dir}/installed.json`, {
        area: "the installed dictation models",
        parse: schemaParse(Stored, "a record of installed models"),
      })
      : null;
    const store = new ModelStore(dir, file);
    const read = await file?.read();
    if (read?.state === "read") store.#stored = read.value;
    if (dir) await removePartials(dir, keeper);
    return store;
  }

  installed(): InstalledRecord[] {
    return [...this.#stored.installed];
  }

  record(file: string): InstalledRecord | undefined {
    return this.#stored.installed.find((r) => r.file === file);
  }

  path(file: string): string {
    return `${this.#dirOrRefuse()}/${file}`;
  }

  pick(): { file: string; at: number } | null {
    return this.#stored.picks.dictation ?? null;
  }

  async setPick(file: string | null): Promise<void> {
    await this.#mended();
    const picks = { ...this.#stored.picks };
    if (file) picks.dictation = { file, at: Date.now() };
    else delete picks.dictation;
    await this.#save({ ...this.#stored, picks });
  }

  /**
   * Copies a local-file row's model from `importDir` into `models_dir`, hashing as it copies;
   * refused when the file is absent, its size or its digest differs from the row's pin.
   */
  async install(
    row: CatalogueRow,
    importDir: string | null,
    progress: (got: number, total: number) => void,
  ): Promise<InstalledRecord> {
    if (row.source !== "local_file") {
      throw new Error(`${row.variant} ships in ${row.package}: install that package instead`);
    }
    const dir = this.#dirOrRefuse();
    await this.#mended();
    if (!importDir) throw new Error("no [dictate] import_dir is set to install local files from");
    const from = `${importDir}/${row.file}`;
    let size: number;
    try {
      size = (await Deno.stat(from)).size;
    } catch {
      throw new Error(`${row.file} is not in ${importDir}: put the file there first`);
    }
    if (size !== row.size_bytes) {
      throw new Error(`${from} is ${size} bytes; ${row.variant} is ${row.size_bytes} bytes`);
    }
    await Deno.mkdir(dir, { recursive: true });
    const partial = `${dir}/${row.file}.partial`;
    const pinned = createHash(row.digest.algorithm);
    const sha256 = createHash("sha256");
    let got = 0;
    let reported = 0;
    try {
      using src = await Deno.open(from);
      using dst = await Deno.open(partial, { write: true, create: true, truncate: true });
      const writer = dst.writable.getWriter();
      for await (const chunk of src.readable) {
        pinned.update(chunk);
        sha256.update(chunk);
        await writer.write(chunk);
        got += chunk.length;
        if (got - reported >= PROGRESS_EVERY) {
          reported = got;
          progress(got, size);
        }
      }
      // The record will say the model is there: its bytes are on disk before it does. Synced
      // before the writer closes, which closes the file with it.
      await dst.sync();
      await writer.close();
    } catch (err) {
      await Deno.remove(partial).catch(() => {/* the copy's failure is what is reported */});
      throw new Error(`copying ${from} failed: ${ioWords(err)}`, { cause: err });
    }
    const actual = pinned.digest("hex");
    if (actual !== row.digest.value) {
      await Deno.remove(partial).catch(() => {/* the digest's mismatch is what is reported */});
      throw new Error(
        `${from} has ${row.digest.algorithm} ${actual}; ${row.variant} pins ${row.digest.value}`,
      );
    }
    await Deno.rename(partial, `${dir}/${row.file}`);
    const record: InstalledRecord = {
      variant: row.variant,
      file: row.file,
      url: from,
      size,
      sha256: sha256.digest("hex"),
      facts: { license: row.license, params: row.params, quant: row.quant, runtime: row.engine },
      at: Date.now(),
    };
    await this.#save({
      ...this.#stored,
      installed: [...this.#stored.installed.filter((r) => r.file !== row.file), record],
    });
    return record;
  }

  /** Removes an installed model and its record; refused when it is not installed or in use. */
  async uninstall(file: string): Promise<void> {
    await this.#mended();
    if (!this.record(file)) throw new Error(`${file} is not installed`);
    if (this.pick()?.file === file) {
      throw new Error(`${file} runs the dictation role: dictate_deactivate it first`);
    }
    await this.#save({
      ...this.#stored,
      installed: this.#stored.installed.filter((r) => r.file !== file),
    });
    // The record no longer names it: a file that will not go is only disk, never a claim.
    await Deno.remove(this.path(file)).catch((error) =>
      error instanceof Deno.errors.NotFound ? undefined : Promise.reject(
        new Error(`${file} was uninstalled but its file could not be removed`, { cause: error }),
      )
    );
  }

  #dirOrRefuse(): string {
    if (!this.dir) throw new Error("no models_dir: set [dictate] models_dir (HOME is unset)");
    return this.dir;
  }

  /** A damaged record refuses (the keeper's words); a mended one is read back first. */
  async #mended(): Promise<void> {
    const read = await this.file?.writable();
    if (read) this.#stored = read.state === "read" ? read.value : { installed: [], picks: {} };
  }

  /** The record moves only once the write landed. */
  async #save(stored: Stored): Promise<void> {
    this.#dirOrRefuse();
    await this.file!.write(stored);
    this.#stored = stored;
  }
}

/** A copy a crash cut short (`<file>.partial`) is removed when the store opens. */
async function removePartials(dir: string, keeper: StateKeeper): Promise<void> {
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !e.name.endsWith(".partial")) continue;
      await Deno.remove(`${dir}/${e.name}`);
      keeper.log.info("dictate_partial_removed", { file: `${dir}/${e.name}` });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      keeper.log.warn("dictate_partials_unswept", { dir, error });
    }
  }
}
