import type { AvailableModel } from "../../../protocol/mod.ts";
import type { JsonObject } from "../claude/mod.ts";

/**
 * The model facts the session header and `connected` carry, in the original's shapes: the CLI's
 * `initialize` answer names its catalogue (`models[]`: value, resolvedModel, displayName,
 * supports* flags), read here into `AvailableModel` rows; the header's model is the resolved id
 * matched against them by protocol/current_model.ts, which the web page shares.
 */

const bool = (v: unknown): boolean | null => typeof v === "boolean" ? v : null;
const text = (v: unknown): string | null => typeof v === "string" ? v : null;
const levels = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** One catalogue row: the original's `AvailableModel`, plus `resolved_model` (which id the
 * alias runs as today: the CLI says so, and it is what matches the header's model). */
export function availableModel(m: JsonObject): AvailableModel {
  const id = String(m.value ?? "");
  return {
    id,
    display_name: text(m.displayName) ?? id,
    description: text(m.description),
    supports_effort: m.supportsEffort === true,
    supported_effort_levels: levels(m.supportedEffortLevels),
    supports_adaptive_thinking: bool(m.supportsAdaptiveThinking),
    supports_fast_mode: bool(m.supportsFastMode),
    supports_auto_mode: bool(m.supportsAutoMode),
    resolved_model: text(m.resolvedModel),
  };
}

/**
 * Why `model` is not one a seat can switch to, or null when it is: a catalogue row's id (an
 * alias the picker offers) or the id a row resolves to, or one of `served` (the model the seat
 * launched with and its account's `models`). The CLI takes any name it is handed and only the
 * next turn finds out (measured on CLI 2.1.332), so the seat judges by the catalogue it was
 * given; with no catalogue there is nothing to judge by and every name passes.
 */
export function unknownModelWhy(
  model: string,
  rows: AvailableModel[],
  served: readonly string[],
): string | null {
  if (rows.length === 0) return null;
  const known = new Set([
    ...rows.map((r) => r.id),
    ...rows.flatMap((r) => r.resolved_model ?? []),
    ...served,
  ]);
  if (known.has(model)) return null;
  const offered = [...new Set([...rows.map((r) => r.id), ...served])].join(", ");
  const named = model.trim() === "" ? "an empty name" : `\`${model}\``;
  return `${named} is not a model this seat knows; it offers ${offered}`;
}
