/**
 * The settings save path: read forge.toml, check the page's fingerprint, apply the edit batch,
 * guard and validate the candidate, write a temp file beside the destination in its own mode,
 * check the fingerprint again, rename. spec: Editing the config.
 */
import { basename, dirname, join } from "node:path";
import { applyEdits, type Edit } from "./edits.ts";
import { fingerprint } from "../fingerprint.ts";
import { ioWords, readWords } from "../../state/words.ts";
import { isEngineError } from "../../words.ts";

/** What `saveSettings` needs. Validation and guards are the caller's, as callbacks. */
export interface SaveOptions {
  /** The config file; a symlink is followed and its target replaced, the link kept. */
  path: string;
  /** The fingerprint of the text the page's document was built from. */
  fingerprint: string;
  edits: readonly Edit[];
  /** The boot loader run on the candidate text: its own error message, or null when it loads. */
  validate(candidateText: string): string | null;
  /** Identity-diff guards: a sentence naming what it refuses, or null. */
  guard?(beforeText: string, afterText: string): string | null;
  /** Test seam: runs after the temp file exists and before the final fingerprint check. */
  hooks?: { beforeRename?(): Promise<void> };
}

/** Why a save wrote nothing: the reasons of `settings_refused`. */
export type SaveRefusal = "stale" | "invalid" | "refused" | "io";

/** The text now on disk, or the refusal with the loader's/guard's message and the key it names. */
export type SaveResult =
  | { ok: true; text: string }
  | { ok: false; reason: SaveRefusal; message: string; key_path: string | null };

const queues = new Map<string, Promise<unknown>>();

/**
 * Saves an edit batch. Never throws: every failure is a refusal, and a refusal leaves the file
 * and its directory as they were (no temp file behind). Saves to one file are serialized in
 * this process; a writer outside it is caught by the fingerprint check before the rename, so
 * of two racing saves built on one fingerprint exactly one lands and the other is `stale`.
 * A batch that changes nothing writes nothing and succeeds.
 */
export async function saveSettings(opts: SaveOptions): Promise<SaveResult> {
  let target: string;
  try {
    target = await resolveTarget(opts.path);
  } catch (e) {
    return refusal("io", `cannot save ${opts.path}: ${readWhy(e)}`);
  }
  const prev = queues.get(target) ?? Promise.resolve();
  const run = prev.then(() => save(target, opts));
  // The queue's own copy: the caller awaits `run` and hears its failure as a refusal.
  const settled = run.catch(() => {});
  queues.set(target, settled);
  try {
    return await run;
  } catch (e) {
    return refusal("io", `cannot save ${opts.path}: ${writeWhy(e)}`);
  } finally {
    if (queues.get(target) === settled) queues.delete(target);
  }
}

/** The real file behind `path`; a path that does not exist yet is its own target. */
async function resolveTarget(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    try {
      await Deno.lstat(path);
    } catch {
      // Nothing at the path at all (not even a dangling link): it is its own target.
      return join(await Deno.realPath(dirname(path)), basename(path));
    }
    throw new Error("it is a symlink to nothing");
  }
}

/** The file's text, or "" when it does not exist (a missing file means the defaults). */
async function readOrEmpty(path: string): Promise<{ text: string; info: Deno.FileInfo | null }> {
  try {
    const info = await Deno.stat(path);
    return { text: await Deno.readTextFile(path), info };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { text: "", info: null };
    throw e;
  }
}

async function save(target: string, opts: SaveOptions): Promise<SaveResult> {
  let before: { text: string; info: Deno.FileInfo | null };
  try {
    before = await readOrEmpty(target);
  } catch (e) {
    return refusal("io", `cannot read ${target}: ${readWhy(e)}`);
  }
  const stale = (now: string) =>
    refusal(
      "stale",
      `${target} changed since the page loaded it (fingerprint ${opts.fingerprint}, now ${now})`,
    );
  if (fingerprint(before.text) !== opts.fingerprint) return stale(fingerprint(before.text));
  // A file its owner made read-only says "do not edit": the rename would replace it anyway (and
  // root's write would pass any mode), so the save honours the mode itself.
  const mode = before.info?.mode;
  if (typeof mode === "number" && (mode & 0o222) === 0) {
    return refusal(
      "io",
      `${target} is read-only (mode ${
        (mode & 0o777).toString(8).padStart(4, "0")
      }): make it writable to save`,
    );
  }
  const applied = applyEdits(before.text, opts.edits);
  if (!applied.ok) return refusal("invalid", applied.message, applied.key_path);
  const after = applied.text;
  // Guards before the loader: removing an account an org binds also leaves the org
  // naming an account nobody declares, which the loader would call `invalid`; the guard's
  // refusal says what it found, so it speaks first.
  const refused = opts.guard
    ? check(() => opts.guard?.(before.text, after) ?? null, "a guard")
    : null;
  if (refused !== null) return refusal("refused", refused, keyOf(refused, opts.edits));
  const invalid = check(() => opts.validate(after), "the loader");
  if (invalid !== null) return refusal("invalid", invalid, keyOf(invalid, opts.edits));
  if (after === before.text) return { ok: true, text: after };

  const temp = join(dirname(target), `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  let created = false;
  try {
    // The config holds tokens: a new file is private; an existing one keeps its own mode.
    const mode = typeof before.info?.mode === "number" ? before.info.mode & 0o7777 : 0o600;
    const file = await Deno.open(temp, { write: true, createNew: true, mode });
    created = true;
    try {
      const bytes = new TextEncoder().encode(after);
      for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
      await file.syncData();
    } finally {
      file.close();
    }
    await Deno.chmod(temp, mode); // creation masked the mode with the umask
    await keepOwner(temp, before.info);
    await opts.hooks?.beforeRename?.();
    // spec: "read again after the temp file exists and before the rename".
    const now = fingerprint((await readOrEmpty(target)).text);
    if (now !== opts.fingerprint) {
      await removeQuietly(temp);
      return stale(now);
    }
    await Deno.rename(temp, target);
    created = false;
  } catch (e) {
    if (created) await removeQuietly(temp);
    return refusal("io", `cannot write ${target}: ${writeWhy(e)}`);
  }
  // The rename landed the save: a directory that cannot be fsynced does not undo it.
  await syncDir(dirname(target));
  return { ok: true, text: after };
}

function refusal(reason: SaveRefusal, message: string, key_path: string | null = null): SaveResult {
  return { ok: false, reason, message, key_path };
}

/** A failed read or write in forge's words (ours pass; the engine's errno is named). */
function readWhy(e: unknown): string {
  return isEngineError(e) ? readWords(e) : (e as Error).message;
}

function writeWhy(e: unknown): string {
  return isEngineError(e) ? ioWords(e) : (e as Error).message;
}

/** A callback's own sentence, or what failed when it threw the engine's. */
function why(e: unknown): string {
  return isEngineError(e) ? "it threw inside forge" : (e as Error).message;
}

/** The rename is durable once the directory entry is on disk too. */
async function syncDir(dir: string): Promise<void> {
  try {
    using handle = await Deno.open(dir, { read: true });
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  }
}

/** Runs a callback that returns a refusal message; a callback that throws refuses too. */
function check(run: () => string | null, who: string): string | null {
  try {
    return run();
  } catch (e) {
    return `${who} failed on the candidate: ${why(e)}`;
  }
}

/**
 * The key a loader or guard message is about: the edit whose key_path it quotes (the longest,
 * so `accounts.A.models` beats `accounts.A`), else the only edit's, else null.
 */
function keyOf(message: string, edits: readonly Edit[]): string | null {
  const quoted = edits.map((e) => e.key_path).filter((k) => k !== "" && message.includes(k));
  if (quoted.length) return quoted.reduce((a, b) => (b.length > a.length ? b : a));
  return edits.length === 1 ? edits[0].key_path : null;
}

/**
 * Gives the temp file the destination's owner, so a save by root leaves a user's file theirs.
 * Only root may do that; anyone else writes a file they own, as any editor would.
 */
async function keepOwner(temp: string, info: Deno.FileInfo | null): Promise<void> {
  if (info === null || info.uid === null || info.gid === null || Deno.uid() !== 0) return;
  const mine = await Deno.stat(temp);
  if (mine.uid !== info.uid || mine.gid !== info.gid) await Deno.chown(temp, info.uid, info.gid);
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch {
    // Already gone; nothing else can be done about a temp file we cannot remove.
  }
}

/** A save's temp file beside `target`: `.<name>.<8 hex>.tmp`. */
const isSaveTemp = (target: string, name: string) =>
  name.startsWith(`.${basename(target)}.`) && /^\.[0-9a-f]{8}\.tmp$/.test(
    name.slice(basename(target).length + 1),
  );

/**
 * Removes the temp files a save cut short by a crash left beside the config (one process keeps
 * a config, so at boot none is in use) and answers their paths. A directory that does not exist
 * yet holds none; any other failure rejects with the engine's error, for the caller to log.
 */
export async function sweepSaveTemps(path: string): Promise<string[]> {
  const removed: string[] = [];
  let target: string;
  let entries: Deno.DirEntry[];
  try {
    target = await resolveTarget(path);
    entries = await Array.fromAsync(Deno.readDir(dirname(target)));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return removed;
    throw e;
  }
  for (const e of entries) {
    if (!e.isFile || !isSaveTemp(target, e.name)) continue;
    await Deno.remove(join(dirname(target), e.name));
    removed.push(join(dirname(target), e.name));
  }
  return removed;
}
