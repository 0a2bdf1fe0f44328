import { useState } from "preact/hooks";
import { PermissionAction, PermissionRequest } from "../../../../protocol/mod.ts";
import { ToolInput } from "../draw/tool_call.tsx";
import type { Ask } from "../model/asks.ts";
import { editedInput, editStart } from "../model/permission_edit.ts";
import { narrow } from "../net/narrow.ts";
import { GenericCard } from "./generic_card.tsx";
import { client } from "./use.ts";
import { Said } from "../draw/said.tsx";

type Option = PermissionRequest["options"][number];

/**
 * A permission ask: the call drawn as the conversation draws it (a Bash call as its command, a
 * Write as its file, an Edit as a diff), wrapped to the screen, and the CLI's answers. The
 * "edit" answer opens the call's input for editing and allows it as edited (spec:
 * respond_permission, `allow_with_input`).
 */
export function PermissionCard(props: { ask: Ask }) {
  // The card as protocol/ types it (an ask the page cannot read is drawn as the generic card).
  const r = narrow(PermissionRequest, "permission ask", props.ask.request);
  const [notes, setNotes] = useState("");
  const [editing, setEditing] = useState<{ field: string | null; text: string } | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const key = client().state.seat!.slot;
  if (!r.ok) return <GenericCard ask={props.ask} />;
  const { tool_call: call, display, options } = r.data;
  const tool = call.meta.tool_name;
  const answer = (o: Option) => {
    // The option's action crosses as JSON; it goes back as the PermissionAction it must be.
    const action = PermissionAction.safeParse(o.action);
    if (!action.success) return;
    let edited = {};
    if (o.kind === "edit") {
      if (!editing) return setEditing(editStart(tool, call.raw_input));
      const read = editedInput(call.raw_input, editing.field, editing.text);
      if (!read.ok) return setRefused(read.why);
      edited = { edited_input: read.input };
    }
    client().command("respond_permission", {
      key,
      tool_id: props.ask.id,
      outcome: {
        outcome: "selected",
        option_id: o.option_id,
        action: action.data,
        ...(o.kind === "notes" ? { notes_text: notes } : {}),
        ...edited,
      },
    });
  };
  return (
    <>
      <div class="ask-title">Allow {call.title}?</div>
      {display.description ? <div class="muted">{display.description}</div> : null}
      <div class="ask-input" data-testid="ask-input">
        <ToolInput name={tool} input={call.raw_input} />
      </div>
      {editing && (
        <label class="ask-edit">
          <span class="muted">
            {editing.field ? `Edit ${editing.field}` : "Edit the input (JSON)"}
          </span>
          <textarea
            data-testid="ask-edit"
            value={editing.text}
            onInput={(e) => {
              setEditing({ ...editing, text: e.currentTarget.value });
              setRefused(null);
            }}
          />
        </label>
      )}
      {refused && (
        <p class="error" data-testid="ask-edit-refused">
          Not sent: <Said text={refused} />.
        </p>
      )}
      <input
        placeholder="Notes for Claude (with “Tell Claude…”)"
        value={notes}
        onInput={(e) => setNotes(e.currentTarget.value)}
      />
      <div class="ask-actions">
        {options.map((o) => (
          <button
            type="button"
            class={`opt-${o.kind}`}
            data-testid={`option-${o.option_id}`}
            key={o.option_id}
            onClick={() => answer(o)}
          >
            {o.kind === "edit" && editing ? "Allow as edited" : o.name}
          </button>
        ))}
      </div>
    </>
  );
}
