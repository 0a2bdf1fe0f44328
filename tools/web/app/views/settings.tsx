import { useState } from "preact/hooks";
import type { SettingsEdit, SettingsKey, SettingsValue, Wire } from "../../../../protocol/mod.ts";
import { client, useApp } from "./use.ts";

/**
 * The settings page: the effective config drawn key by key from each key's `edit` kind, a draft
 * of changed keys saved as one `settings_edit`, and the answer shown in the server's own words -
 * saved, or refused as stale, invalid, refused or io. spec: The effective config; Editing the
 * config.
 */
export function SettingsPage() {
  const s = useApp();
  const doc = s.settings;
  const [draft, setDraft] = useState<
    Map<string, { area: string; key: SettingsKey; value: SettingsValue }>
  >(
    new Map(),
  );
  const [saveId, setSaveId] = useState<number | null>(null);
  const [filter, setFilter] = useState("");
  if (!doc) return <p class="muted">Reading the config…</p>;
  const answer = saveId === null ? null : s.saves.get(saveId) ?? null;
  const save = () => {
    const edits: SettingsEdit[] = [...draft.values()].map((d) => ({
      area: d.area,
      key_path: d.key.path,
      pattern: d.key.pattern,
      op: "set",
      value: d.value,
    }));
    setSaveId(client().saveSettings(edits));
  };
  if (answer?.kind === "saved" && draft.size > 0) setDraft(new Map());
  const set = (area: string, key: SettingsKey, value: SettingsValue) =>
    setDraft(new Map(draft).set(key.path, { area, key, value }));
  return (
    <div class="settings" data-testid="settings">
      <header class="page-head">
        <h1>Settings</h1>
        <span class="muted">{doc.source} · {doc.totals.keys} keys</span>
        <input
          placeholder="filter keys"
          value={filter}
          onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        />
      </header>
      {doc.areas.map((area) => {
        const keys = area.keys.filter((k) => !filter || k.path.includes(filter));
        if (keys.length === 0) return null;
        return (
          <section class="area" key={area.id}>
            <h2>
              {area.name} <span class="muted">{area.note}</span>
            </h2>
            {keys.map((k) => (
              <KeyRow
                k={k}
                key={k.path}
                value={draft.get(k.path)?.value ?? k.value}
                dirty={draft.has(k.path)}
                onChange={(v) => set(area.id, k, v)}
              />
            ))}
          </section>
        );
      })}
      {
        /* Save and its answer stay at the foot of the screen: a key far down the page is saved,
          and its answer read, beside it. */
      }
      <footer class="settings-foot" data-testid="settings-foot">
        <button
          type="button"
          data-testid="save"
          disabled={draft.size === 0}
          onClick={save}
        >
          Save {draft.size > 0 ? `(${draft.size})` : ""}
        </button>
        {answer && answer.kind !== "pending" && (
          <div
            class={`notice ${answer.kind}`}
            data-testid="save-answer"
            role={answer.kind === "refused" ? "alert" : "status"}
          >
            {answer.kind === "saved"
              ? "Saved. The server reloaded the config."
              : `${answer.reason}: ${answer.message}${
                answer.key_path ? ` (${answer.key_path})` : ""
              }`}
            {answer.kind === "refused" && answer.reason === "stale" && (
              <button
                type="button"
                onClick={() => setDraft(new Map())}
              >
                Reload
              </button>
            )}
          </div>
        )}
      </footer>
    </div>
  );
}

function KeyRow(
  props: {
    k: SettingsKey;
    value: Wire;
    dirty: boolean;
    onChange: (v: SettingsValue) => void;
  },
) {
  const { k, value } = props;
  const id = `key-${k.path}`;
  const label = [...k.group, k.leaf].join(" · ");
  let control;
  switch (k.edit.kind) {
    case "bool":
      control = (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(e) => props.onChange((e.target as HTMLInputElement).checked)}
        />
      );
      break;
    case "number":
      control = (
        <input
          id={id}
          type="number"
          value={value === null ? "" : String(value)}
          onChange={(e) => {
            const text = (e.target as HTMLInputElement).value;
            props.onChange(
              text === "" && !k.edit.required ? null : Number(text),
            );
          }}
        />
      );
      break;
    case "enum":
      control = (
        <select
          id={id}
          value={value === null ? "" : String(value)}
          onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}
        >
          {!k.edit.required && <option value="">(unset)</option>}
          {(k.edit.allowed ?? []).map((a) => <option value={a} key={a}>{a}</option>)}
        </select>
      );
      break;
    case "list":
      control = (
        <textarea
          id={id}
          value={Array.isArray(value) ? value.join("\n") : ""}
          onChange={(e) =>
            props.onChange(
              (e.target as HTMLTextAreaElement).value.split("\n").map((l) => l.trim()).filter(
                Boolean,
              ),
            )}
        />
      );
      break;
    default:
      control = (
        <input
          id={id}
          value={value === null ? "" : String(value)}
          onChange={(e) => {
            const text = (e.target as HTMLInputElement).value;
            // spec: an emptied optional string clears the key; a required one keeps its value.
            props.onChange(text === "" && !k.edit.required ? null : text);
          }}
        />
      );
  }
  return (
    <div class={`key${props.dirty ? " dirty" : ""}`} data-testid={id}>
      <label for={id}>{label}</label>
      {control}
      <span class="muted class">{k.class.replaceAll("_", " ")}</span>
    </div>
  );
}
