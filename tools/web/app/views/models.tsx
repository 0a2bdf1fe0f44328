import { DictateRole, type Wire } from "../../../../protocol/mod.ts";
import type { DictateModels } from "../net/narrow.ts";
import { ReadAloud } from "./read_aloud.tsx";
import { client, useApp } from "./use.ts";
import { ReadRefused } from "./read_refused.tsx";

// The read's rows are protocol/dictate_models.ts's (the snapshot was narrowed with them): the
// page draws them as they are typed.

const role = (kind: string) => DictateRole.safeParse(kind).data ?? "dictation";

/**
 * A state tagged on `state` in words: `downloading 3.2/27.1 MB`, `failed: why`, `checking`.
 * Typed for the check, install and activate; the running bench and a role's state are JSON.
 */
function stateWords(raw: Wire): string {
  if (typeof raw === "string") return raw;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "";
  const text = (v: Wire | undefined) => typeof v === "string" ? v : null;
  const num = (v: Wire | undefined) => typeof v === "number" ? v : null;
  const state = text(raw.state) ?? "";
  const total = num(raw.total);
  if (state === "downloading" && total) {
    const got = num(raw.got) ?? 0;
    return `downloading ${text(raw.file) ?? ""} ${got / 1e6 | 0}/${total / 1e6 | 0} MB`;
  }
  if (state === "fresh") return `fresh (${text(raw.release) ?? "?"})`;
  const why = text(raw.reason) ?? text(raw.error);
  return why ? `${state}: ${why}` : state;
}

/**
 * The models page: the models in use, the catalogue check, every catalogue row with install,
 * activate and uninstall (their progress drawn as it moves), the read-aloud set and its bench
 * with the results, and a seat's dictation overrides. spec: dictate_models (its field table);
 * the original's dictate_* commands.
 */
export function ModelsPage() {
  const s = useApp();
  const m = s.models;
  if (!m && s.refusedReads.dictate_models) {
    return <ReadRefused subject="dictate_models" page="models page" testId="models-refused" />;
  }
  if (!m) return <p class="muted">Reading the models…</p>;
  const installed = m.installed;
  return (
    <div class="models" data-testid="models">
      <header class="page-head">
        <h1>Dictation models</h1>
        <span class="muted">
          {m.enabled ? "dictation on" : "dictation off"} · {m.models_dir ?? "no models dir"}
        </span>
        <span class="muted" data-testid="catalogue-check">catalogue: {stateWords(m.check)}</span>
        <button
          type="button"
          data-testid="catalogue-check-now"
          onClick={() => client().command("dictate_catalogue_check", null)}
        >
          Check now
        </button>
      </header>
      <p class="muted" data-testid="model-progress">
        install: {stateWords(m.install)} · activate: {stateWords(m.activate)}
      </p>
      <InUse m={m} />
      <section>
        <h2>Catalogue</h2>
        <table class="plugins" data-testid="model-rows">
          <tbody>
            {m.rows.map((r) => {
              const have = r.installed || installed.some((i) => i.file === r.file);
              const using = m.in_use.some((u) => u.file === r.file);
              return (
                <tr key={r.variant} data-testid={`model-${r.variant}`}>
                  <td>
                    <b>{r.variant}</b>{" "}
                    <span class="muted">
                      {r.display_name} · {r.kind} · {r.license}
                      {r.size_bytes ? ` · ${(r.size_bytes / 1e6).toFixed(1)} MB` : ""}
                    </span>
                  </td>
                  <td class="muted">
                    {r.wer ? `WER ${r.wer.value}` : ""} {r.speed ? `· ${r.speed.xrt_wall}×` : ""}
                  </td>
                  <td>
                    {using ? <span class="chip ready">in use</span> : have
                      ? (
                        <>
                          <button
                            type="button"
                            data-testid="model-activate"
                            onClick={() =>
                              client().command("dictate_activate", {
                                role: role(r.kind),
                                file: r.file,
                              })}
                          >
                            Activate
                          </button>
                          <button
                            type="button"
                            data-testid="model-uninstall"
                            onClick={() => client().command("dictate_uninstall", { file: r.file })}
                          >
                            Uninstall
                          </button>
                        </>
                      )
                      : (
                        <button
                          type="button"
                          data-testid="model-install"
                          onClick={() =>
                            client().command("dictate_install", { variant: r.variant })}
                        >
                          Install
                        </button>
                      )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <ReadAloud m={m} />
      <Results m={m} />
    </div>
  );
}

function InUse(props: { m: DictateModels }) {
  return (
    <section>
      <h2>In use</h2>
      <ul data-testid="models-in-use">
        {props.m.in_use.map((u) => (
          <li key={`${u.role}:${u.file}`}>
            <b>{u.role}</b> {u.file}{" "}
            <span class="muted">
              {stateWords(u.state) || JSON.stringify(u.state)} · from {u.from.from}
            </span>
            {u.role !== "speaking" && (
              <button
                type="button"
                onClick={() => client().command("dictate_deactivate", { role: role(u.role) })}
              >
                Back to the pin
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Results(props: { m: DictateModels }) {
  const results = props.m.results;
  return (
    <section>
      <h2>Bench results</h2>
      {props.m.bench && (
        <p class="muted" data-testid="bench-running">running: {stateWords(props.m.bench)}</p>
      )}
      {results.length === 0 && <p class="muted">No run yet.</p>}
      <ul data-testid="bench-results">
        {results.map((r, i) => (
          <li key={i} data-testid="bench-result">
            {r.target.role} {r.target.file}: WER {r.metrics.wer} · {r.metrics.xrt_wall}× realtime ·
            {" "}
            {r.metrics.clips} clips
          </li>
        ))}
      </ul>
    </section>
  );
}
