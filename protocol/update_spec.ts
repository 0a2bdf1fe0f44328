import { z } from "zod";
import { Slot } from "./slot.ts";

/** A subject beyond the seat's own session that hears an update. spec: What a client receives. */
export type Hearer = "home" | "board" | "dictate_models" | "extensions";

/**
 * One row of the update table (protocol/updates.ts): what the update means, the schema of its
 * fields, and who hears it beyond the seat it names. A keyless update always reaches home (the
 * second arm of its routing rule), so `hears: ["home"]` marks a KEYED update as fleet news.
 */
export interface UpdateSpec {
  /** What the update says, in a sentence: docs/protocol.md prints it. */
  about: string;
  /** The field bag's schema (`key` included on a keyed update); null for a unit variant. */
  fields: z.ZodType | null;
  /** The other subjects that hear it. */
  hears?: readonly Hearer[];
  /** It goes to the connection that started it alone (a dictation take's news). */
  own?: true;
  /** Set when forge adds it beyond protocol v29: why, in a sentence. */
  extension?: string;
}

/** The seat an update belongs to: the `key` every keyed update carries. */
export const key = Slot.describe("the seat this update belongs to");

/** A keyed update's fields: the seat's `key` and the shape given, closed. */
export const keyed = <T extends z.ZodRawShape>(shape: T) => z.object({ key, ...shape }).strict();

/** A keyless update's fields, closed. */
export const keyless = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** The core's own words for what happened. */
export const words = z.string().describe("what happened, in forge's or the CLI's words");

/** The prompt's uuid: the id it was dispatched under, which its frames carry too. */
export const promptUuid = z.string().describe("the prompt's uuid, which its turn's frames carry");
