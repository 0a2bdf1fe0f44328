import type { z } from "zod";
import {
  BoardSnapshot,
  describeIssues,
  DictateModelsSnapshot,
  ExtensionsRead,
  HomeSnapshot,
  parseIgnoringUnknownFields,
  SessionSnapshot,
  UsageSnapshotSchema,
  type Wire,
} from "../../../../protocol/mod.ts";

/**
 * Snapshot data narrowed with protocol/'s own schemas, so the views read typed fields instead of
 * casting. A field this build does not know is set aside (a newer server adds fields; the spec
 * calls them additive); a value off its schema is refused with forge's words for why, and the
 * page keeps what it drew before.
 */
export type Narrowed<T> = { ok: true; data: T; ignored: string[] } | { ok: false; why: string };

export function narrow<T>(schema: z.ZodType<T>, what: string, raw: Wire): Narrowed<T> {
  const parsed = parseIgnoringUnknownFields(schema, raw);
  if (parsed.success) return { ok: true, data: parsed.data, ignored: parsed.ignored };
  return { ok: false, why: `${what}: ${describeIssues(parsed.error)}` };
}

export type Home = z.infer<typeof HomeSnapshot>;
export type Board = z.infer<typeof BoardSnapshot>;
export type Session = z.infer<typeof SessionSnapshot>;
export type Extensions = z.infer<typeof ExtensionsRead>;
export type DictateModels = z.infer<typeof DictateModelsSnapshot>;

export const narrowHome = (raw: Wire) => narrow(HomeSnapshot, "home", raw);
export const narrowBoard = (raw: Wire) => narrow(BoardSnapshot, "board", raw);
export const narrowSession = (raw: Wire) => narrow(SessionSnapshot, "session", raw);
export const narrowExtensions = (raw: Wire) => narrow(ExtensionsRead, "extensions", raw);
export const narrowUsage = (raw: Wire) => narrow(UsageSnapshotSchema, "usage", raw);
export const narrowDictateModels = (raw: Wire) =>
  narrow(DictateModelsSnapshot, "dictate_models", raw);
