import type { z } from "zod";

/**
 * What went wrong on disk, in forge's words: the errno a failed read or write carries, named
 * the way a person would say it (never the engine's `No space left on device (os error 28):
 * writefile '...'`). The caller puts the path beside it; the engine's own message goes to the log.
 */
export function ioWords(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case "ENOSPC":
      return "the disk is full";
    case "EDQUOT":
      return "the disk quota is used up";
    case "EROFS":
      return "the file system is read-only";
    case "EACCES":
    case "EPERM":
      return "forge is not allowed to write there";
    case "ENOENT":
      return "its directory does not exist";
    case "ENOTDIR":
      return "a part of its path is a file, not a directory";
    case "EISDIR":
      return "a directory stands where the file should be";
    case "EEXIST":
      return "a file stands where a directory should be";
    case "EMFILE":
    case "ENFILE":
      return "forge has too many files open";
    case "EIO":
      return "the disk reported an input/output error";
    case "ENAMETOOLONG":
      return "its path is too long";
  }
  if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable) {
    return "forge is not allowed to write there";
  }
  if (err instanceof Deno.errors.NotFound) return "its directory does not exist";
  return "the operating system refused the write";
}

/** The same for a read: why a file that exists could not be read. */
export function readWords(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (code === "EACCES" || code === "EPERM" || err instanceof Deno.errors.PermissionDenied) {
    return "forge is not allowed to read it";
  }
  // Deno's own fence (the launcher's --allow-read), not the file's mode.
  if (err instanceof Deno.errors.NotCapable) {
    return "forge's permissions do not reach it (docs/permissions.md says which paths they name)";
  }
  if (code === "EISDIR" || err instanceof Deno.errors.IsADirectory) return "it is a directory";
  if (code === "EIO") return "the disk reported an input/output error";
  if (code === "ENAMETOOLONG") return "its path is too long";
  if (code === "ENOTDIR") return "a part of its path is a file, not a directory";
  if (code === "ELOOP") return "its links go round in a loop";
  if (code === "ENOENT" || err instanceof Deno.errors.NotFound) return "it is not there";
  return "the operating system refused the read";
}

/**
 * A store's `parse` from a zod schema: the data, or a throw naming where the file is not what
 * forge wrote (`its content is not a task list (at tasks.3.title)`), in forge's words rather
 * than the schema library's.
 */
export function schemaParse<T>(schema: z.ZodType<T>, what: string): (raw: unknown) => T {
  return (raw) => {
    const got = schema.safeParse(raw);
    if (got.success) return got.data;
    const at = got.error.issues[0]?.path.join(".") ?? "";
    throw new Error(`its content is not ${what}${at ? ` (at ${at})` : ""}`);
  };
}
