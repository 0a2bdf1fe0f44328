import { assertEquals } from "../../../../tests/assert.ts";
import { editedInput, editStart } from "./permission_edit.ts";

Deno.test("permission edit: a Bash command, a Write's content and an Edit's new text", () => {
  const bash = { command: "rm -rf x", description: "remove" };
  assertEquals(editStart("Bash", bash), { field: "command", text: "rm -rf x" });
  assertEquals(editedInput(bash, "command", "rm x"), {
    ok: true,
    input: { command: "rm x", description: "remove" },
  });
  assertEquals(editStart("Write", { file_path: "a", content: "hi" }).field, "content");
  assertEquals(editStart("Edit", { file_path: "a", old_string: "o", new_string: "n" }).text, "n");
});

Deno.test("permission edit: another tool's input is edited as JSON and read back", () => {
  const input = { file_path: "a.ipynb", cell: 2 };
  const start = editStart("NotebookEdit", input);
  assertEquals(start.field, null);
  assertEquals(editedInput(input, null, start.text), { ok: true, input });
  // A Bash input without its command falls back to JSON too.
  assertEquals(editStart("Bash", { cmd: 1 }).field, null);
});

Deno.test("permission edit: an edit that is not a JSON object is refused in words", () => {
  const broken = editedInput({}, null, "{ nope");
  assertEquals(broken.ok, false);
  assertEquals(!broken.ok && broken.why.includes("not JSON"), true);
  assertEquals(editedInput({}, null, "[1]").ok, false);
});
