import { hideSecrets } from "./config/secrets.ts";

/**
 * forge's log: JSON lines, one named event per record (`socket_origin_refused`, `config_reload`),
 * written to `forge.log` beside the config and rolled to `forge.log.1` past a size bound.
 * Records the spec names are part of the contract.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

const ROLL_BYTES = 16 * 1024 * 1024;

/**
 * A line-file with one rolled copy; appends synchronously so a crash keeps what came before it.
 * The file stays open between appends: a record costs one write, not an open, a write and a close
 * (a client refused 100,000 times must not spend 300,000 syscalls on its records).
 */
export class RolledFile {
  #size = -1;
  #file: Deno.FsFile | null = null;
  #encoder = new TextEncoder();
  constructor(readonly path: string, readonly rollBytes = ROLL_BYTES) {}

  append(line: string): void {
    try {
      if (this.#size < 0) this.#size = statSize(this.path);
      const bytes = this.#encoder.encode(line.endsWith("\n") ? line : line + "\n");
      if (this.#size + bytes.length > this.rollBytes && this.#size > 0) {
        this.#close();
        Deno.renameSync(this.path, this.path + ".1");
        this.#size = 0;
      }
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      for (let off = 0; off < bytes.length;) off += this.#file.writeSync(bytes.subarray(off));
      this.#size += bytes.length;
    } catch {
      // A log that cannot be written must never take the server down; stderr still carries it.
      this.#close();
    }
  }

  #close(): void {
    try {
      this.#file?.close();
    } catch {
      // Already closed.
    }
    this.#file = null;
  }
}

function statSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    // No log yet: it starts at zero (an unreadable one fails at the append, which says so).
    return 0;
  }
}

/**
 * Writes records to a rolled file and mirrors info and above to stderr (debug stays in the file).
 * Every string in a record has the config's secrets taken out (`secrets`: the forms to look for,
 * config/secrets.ts logSecrets): an error an engine wrote can quote a header's value, a token
 * with it, and no record may carry one to the file or the terminal.
 */
export function createLogger(
  opts: {
    file: string | null;
    stderr?: boolean;
    minLevel?: LogLevel;
    secrets?: () => readonly string[];
  },
): Logger {
  const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  const sink = opts.file ? new RolledFile(opts.file) : null;
  const min = order[opts.minLevel ?? "debug"];
  const log = (level: LogLevel, event: string, fields: LogFields = {}) => {
    if (order[level] < min) return;
    const forms = opts.secrets?.() ?? [];
    const line = JSON.stringify(
      { at: new Date().toISOString(), level, event, ...fields },
      forms.length === 0 ? replacer : (key, value) => {
        const v = replacer(key, value);
        return typeof v === "string" ? hideSecrets(v, forms) : v;
      },
    );
    sink?.append(line);
    if (opts.stderr !== false && order[level] >= order.info) console.error(line);
  };
  return {
    log,
    debug: (e, f) => log("debug", e, f),
    info: (e, f) => log("info", e, f),
    warn: (e, f) => log("warn", e, f),
    error: (e, f) => log("error", e, f),
  };
}

/** Errors become their message (and cause), never a stack on a shared channel. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { message: value.message, cause: value.cause ? String(value.cause) : undefined };
  }
  return value;
}

/** A logger that keeps records in memory, for tests. */
export function memoryLogger(): Logger & { records: { level: LogLevel; event: string }[] } {
  const records: ({ level: LogLevel; event: string } & LogFields)[] = [];
  const log = (level: LogLevel, event: string, fields: LogFields = {}) =>
    records.push({ level, event, ...fields });
  return {
    records,
    log,
    debug: (e, f) => log("debug", e, f),
    info: (e, f) => log("info", e, f),
    warn: (e, f) => log("warn", e, f),
    error: (e, f) => log("error", e, f),
  };
}
