/**
 * The CLI's "Allow with edits" answer to a permission ask (spec: respond_permission,
 * `allow_with_input` with `edited_input`): which of the call's input fields a person changes,
 * and the input it sends back. A Bash call's command, a Write's content and an Edit's new text
 * are edited as words; any other tool's whole input as JSON.
 */

type Input = Record<string, unknown>;

/** The field a person edits for this tool, or null when the whole input is edited as JSON. */
const FIELD: Record<string, string> = {
  Bash: "command",
  Write: "content",
  Edit: "new_string",
};

/** What the edit box opens with, and which field it stands for (null: the whole input). */
export function editStart(tool: string, input: unknown): { field: string | null; text: string } {
  const field = FIELD[tool];
  if (field && isObject(input) && typeof input[field] === "string") {
    return { field, text: input[field] as string };
  }
  return { field: null, text: JSON.stringify(input, null, 2) ?? "" };
}

/**
 * The input sent back: the call's own with the edited field replaced, or the edited JSON read
 * back. An edit that is not a JSON object says so in this page's words.
 */
export function editedInput(
  input: unknown,
  field: string | null,
  text: string,
): { ok: true; input: Input } | { ok: false; why: string } {
  if (field !== null) return { ok: true, input: { ...(input as Input), [field]: text } };
  let read: unknown;
  try {
    read = JSON.parse(text);
  } catch {
    return { ok: false, why: "the edited input is not JSON; fix it or allow it as it was" };
  }
  if (!isObject(read)) return { ok: false, why: "the edited input must be a JSON object" };
  return { ok: true, input: read };
}

function isObject(v: unknown): v is Input {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
