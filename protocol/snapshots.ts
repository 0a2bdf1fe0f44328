import type { z } from "zod";
import { BoardSnapshot } from "./board.ts";
import { DictateModelsSnapshot } from "./dictate.ts";
import { ExtensionsRead } from "./extensions.ts";
import { HomeSnapshot } from "./home.ts";
import { SessionSnapshot } from "./session.ts";
import type { Subject } from "./subject.ts";
import { type UsageSnapshot, UsageSnapshotSchema } from "./usage.ts";

/** What a subject's snapshot `data` is on the server: one of the subjects' schema types. */
export type SnapshotData =
  | HomeSnapshot
  | BoardSnapshot
  | DictateModelsSnapshot
  | ExtensionsRead
  | UsageSnapshot
  | SessionSnapshot;

/**
 * The schema of a subject's snapshot `data` (the `snapshot` frame carries it as JSON, since its
 * shape depends on `subject`). A validating client checks each snapshot against it, so a field a
 * subsystem adds to a snapshot without declaring it here fails a test, not a client.
 */
export function snapshotSchema(subject: Subject): z.ZodType {
  if (typeof subject === "object") return SessionSnapshot;
  switch (subject) {
    case "home":
      return HomeSnapshot;
    case "board":
      return BoardSnapshot;
    case "dictate_models":
      return DictateModelsSnapshot;
    case "extensions":
      return ExtensionsRead;
    case "usage":
      return UsageSnapshotSchema;
  }
}
