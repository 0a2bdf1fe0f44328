import type { z } from "zod";
import { describeIssues } from "./issues.ts";
import { BoardSnapshot } from "./board.ts";
import { DictateModelsSnapshot } from "./dictate.ts";
import { ExtensionsRead } from "./extensions.ts";
import { HomeSnapshot } from "./home.ts";
import { SessionSnapshot } from "./session.ts";
import type { Slot } from "./slot.ts";
import type { NamedSubject, Subject } from "./subject.ts";
import { UsageSnapshotSchema } from "./usage.ts";

/**
 * Each subject's snapshot schema, by the subject's name; a seat's (`{"session": Slot}`) is
 * `session`. The `snapshot` frame carries `data` as JSON, since its shape depends on `subject`.
 */
export const SNAPSHOT_SCHEMAS = {
  home: HomeSnapshot,
  board: BoardSnapshot,
  usage: UsageSnapshotSchema,
  dictate_models: DictateModelsSnapshot,
  extensions: ExtensionsRead,
  session: SessionSnapshot,
} as const satisfies Record<NamedSubject | "session", z.ZodType>;

/** A name a snapshot is filed under: a keyless subject's own, or `session`. */
export type SnapshotKey = keyof typeof SNAPSHOT_SCHEMAS;

/** The `data` of the snapshot filed under `K` (`session` for any seat's). */
export type SnapshotNamed<K extends SnapshotKey> = z.infer<(typeof SNAPSHOT_SCHEMAS)[K]>;

/** The name a subject's snapshot is filed under: its own, or `session` for a seat. */
export type SnapshotName<S extends Subject> = S extends NamedSubject ? S : "session";

/** The `data` of the snapshot a subscribe to `S` is answered with. */
export type SnapshotOf<S extends Subject> = z.infer<(typeof SNAPSHOT_SCHEMAS)[SnapshotName<S>]>;

/** What a subject's snapshot `data` is on the server: one of the subjects' schema types. */
export type SnapshotData = SnapshotOf<Subject>;

/**
 * The schema of a subject's snapshot `data`, typed for that subject. A validating client checks
 * each snapshot against it, so a field a subsystem adds to a snapshot without declaring it here
 * fails a test, not a client.
 */
export function snapshotSchema<S extends Subject>(subject: S): z.ZodType<SnapshotOf<S>> {
  const name = (typeof subject === "object" ? "session" : subject) as SnapshotName<S>;
  // The index is S's own row; TypeScript cannot follow a generic index to its row's type.
  return SNAPSHOT_SCHEMAS[name] as unknown as z.ZodType<SnapshotOf<S>>;
}

/**
 * A snapshot frame once its `data` was read against its subject's schema, tagged by `subject`:
 * a client holding several subscriptions narrows on `subject` (`"home"`, or `{session}` for a
 * seat, told apart by `typeof`) and gets that subject's type. spec: subscribe; Subjects.
 */
export type SnapshotFrame = {
  [K in SnapshotKey]: {
    kind: "snapshot";
    subject: K extends "session" ? { session: Slot } : K;
    data: SnapshotNamed<K>;
  };
}[SnapshotKey];

/**
 * Reads a `snapshot` frame's `data` (JSON in the envelope: its shape hangs on `subject`) against
 * its subject's schema: the frame typed by subject, or why not in forge's words.
 */
export function readSnapshotFrame(
  frame: { subject: Subject; data: unknown },
): { ok: true; frame: SnapshotFrame } | { ok: false; why: string } {
  const read = snapshotSchema(frame.subject).safeParse(frame.data, { reportInput: true });
  if (!read.success) {
    return {
      ok: false,
      why: `snapshot of ${JSON.stringify(frame.subject)}: ${describeIssues(read.error)}`,
    };
  }
  // The data was read by the schema filed under this very subject, so the pair is one row.
  const typed = { kind: "snapshot", subject: frame.subject, data: read.data };
  return { ok: true, frame: typed as SnapshotFrame };
}
