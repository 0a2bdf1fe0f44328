import type { z } from "zod";

// A refusal names the field that was wrong and what it should have been, in forge's words: zod's
// own messages ("Invalid input") name neither for a union, and read as the library's, not ours.
// A value is not echoed (a blob or a password can be the wrong field), only its kind; a number is,
// and a short string that missed an enum, since those are what such a refusal is about.

type Issue = z.core.$ZodIssue;

/** One readable clause per failed field, up to four: `key.org: expected a string, got a number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.slice(0, 4).map((issue) => describeIssue(issue, [])).join("; ");
}

function describeIssue(issue: Issue, prefix: PropertyKey[]): string {
  const path = [...prefix, ...issue.path];
  // A union one of whose forms the value did take is described by that form's own failure.
  if (issue.code === "invalid_union") {
    const near = issue.errors.filter((form) => form.length > 0 && !form.some(atRoot));
    if (near.length === 1) return describeIssue(near[0][0], path);
  }
  const where = path.length ? path.map(String).join(".") : "(message)";
  return `${where}: ${phrase(issue)}`;
}

/**
 * A form's issue about the value as a whole: the value is not that form at all. A key the form
 * does not know counts: `{"send_back": ...}` is not a malformed `{"approve": ...}`.
 */
function atRoot(issue: Issue): boolean {
  return issue.path.length === 0 &&
    (issue.code === "invalid_type" || issue.code === "invalid_value" ||
      issue.code === "unrecognized_keys");
}

function phrase(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type": {
      const got = gotOf(issue);
      const want = TYPE_WORDS[issue.expected] ?? issue.expected;
      return got === "nothing" ? `missing (expected ${want})` : `expected ${want}, got ${got}`;
    }
    case "invalid_value": {
      const want = `expected ${values(issue.values)}`;
      if (!("input" in issue)) return want;
      const got = issue.input;
      // A short string is shown: a misspelt name is what such a refusal is about.
      const shown = typeof got === "string" && got.length <= 32 ? JSON.stringify(got) : kindOf(got);
      return got === undefined ? `missing (${want})` : `${want}, got ${shown}`;
    }
    case "invalid_union": {
      // A tagged union whose tag named no form: the tags it takes, and the one it was sent.
      const tagged = discriminatorMiss(issue);
      if (tagged) return tagged;
      const forms = issue.errors.map((form) => form.find((i) => i.path.length === 0))
        .map((i) => i?.code === "invalid_type" ? TYPE_WORDS[i.expected] ?? i.expected : null)
        .map((w, n) => w ?? rootValues(issue.errors[n]) ?? taggedForm(issue.errors[n]));

      const want = forms.length && forms.every((f) => f !== null)
        ? `expected ${[...new Set(forms)].join(" or ")}`
        : "matches none of the forms it may take";
      if (!("input" in issue)) return want;
      return issue.input === undefined
        ? `missing (${want})`
        : `${want}, got ${kindOf(issue.input)}`;
    }
    case "too_small":
      return bound(issue, "at least", "more than");
    case "too_big":
      return bound(issue, "at most", "less than");
    case "invalid_format":
      return issue.format === "regex"
        ? `is not in the expected form (${issue.pattern ?? "a pattern"})`
        : `is not a valid ${issue.format}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${
        issue.keys.map((k) => `\`${k}\``).join(", ")
      }`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      // `custom` carries words a schema's refine wrote for it; the rest are rare enough to keep.
      return issue.message;
  }
}

/**
 * A discriminated union's miss (zod reports it at the tag's own path, holding the whole object):
 * `expected one of "press", "move", got "fly"`, or `missing (...)` when the tag was not sent.
 */
function discriminatorMiss(issue: Extract<Issue, { code: "invalid_union" }>): string | null {
  const { discriminator, options } = issue as { discriminator?: unknown; options?: unknown };
  if (typeof discriminator !== "string" || !Array.isArray(options) || !("input" in issue)) {
    return null;
  }
  const want = `expected ${values(options)}`;
  const held = issue.input;
  const tag = held !== null && typeof held === "object" && !Array.isArray(held)
    ? (held as Record<string, unknown>)[discriminator]
    : undefined;
  if (tag === undefined) return `missing (${want})`;
  const shown = typeof tag === "string" && tag.length <= 32 ? JSON.stringify(tag) : kindOf(tag);
  return `${want}, got ${shown}`;
}

/**
 * An externally tagged form (spec: How a message is tagged) the value missed by its key: the
 * form's one field was missing and the key sent was not it. Read as `{"approve": …}`.
 */
function taggedForm(form: Issue[]): string | null {
  const missing = form.filter((i) =>
    i.path.length === 1 && i.code === "invalid_type" && "input" in i && i.input === undefined
  );
  const strangers = form.filter((i) => i.path.length === 0 && i.code === "unrecognized_keys");
  if (missing.length !== 1 || strangers.length !== 1 || form.length !== 2) return null;
  return `{${JSON.stringify(String(missing[0].path[0]))}: …}`;
}

function rootValues(form: Issue[]): string | null {
  const v = form.find((i) => i.path.length === 0 && i.code === "invalid_value");
  return v?.code === "invalid_value" ? values(v.values) : null;
}

function values(vs: readonly unknown[]): string {
  const shown = vs.map((v) => JSON.stringify(v));
  return shown.length === 1 ? shown[0] : `one of ${shown.join(", ")}`;
}

function bound(
  issue: Extract<Issue, { code: "too_small" | "too_big" }>,
  inclusive: string,
  exclusive: string,
): string {
  const n = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
  const word = issue.inclusive === false ? exclusive : inclusive;
  switch (issue.origin) {
    case "string":
      return issue.code === "too_small" && n === 1
        ? "must not be empty"
        : `must be ${word} ${n} characters`;
    case "array":
    case "set":
      return `must hold ${word} ${n} item${n === 1 ? "" : "s"}`;
    default:
      return `must be ${word} ${n}`;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
  record: "an object",
  tuple: "a list",
};

/** What the value was: parsed with `reportInput` it is on the issue; else zod's words say it. */
function gotOf(issue: Issue): string {
  if ("input" in issue) return kindOf(issue.input);
  const received = /received (\w+)/.exec(issue.message)?.[1];
  if (received === undefined) return "something else";
  return received === "undefined" ? "nothing" : (TYPE_WORDS[received] ?? received);
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "a number";
  return TYPE_WORDS[typeof value] ?? `a ${typeof value}`;
}
