import { z } from "zod";
import { DictateRole } from "../../../../protocol/mod.ts";
import type { DictateModels } from "../net/narrow.ts";
import { ReadAloud } from "./read_aloud.tsx";
import { client, useApp } from "./use.ts";

const Row = z.object({
  variant: z.string(),
  file: z.string(),
  display_name: z.string().nullish(),
  kind: z.string().nullish(),
  license: z.string().nullish(),
  size_bytes: z.number().nullish(),
  installed: z.boolean().catch(false),
  // The feed's or the local bench's numbers, each naming its source (a row without is drawn).
  wer: z.object({ value: z.number() }).loose().nullish().catch(null),
  speed: z.object({ xrt_wall: z.number() }).loose().nullish().catch(null),
}).loose();
const Installed = z.object({ variant: z.string().nullish(), file: z.string() }).loose();
const Result = z.object({
  target: z.object({ role: z.string(), file: z.string() }).loose(),
  metrics: z.object({ wer: z.number(), xrt_wall: z.number(), clips: z.number() }).loose(),
}).loose();
const Tagged = z.object({
  state: z.string(),
  got: z.number().optional(),
  total: z.number().optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
  release: z.string().optional(),
  file: z.string().optional(),
}).loose();

const list = <T,>(schema: z.ZodType<T>, xs: unknown[]): T[] =>
  xs.flatMap((x) => {
    const r = schema.safeParse(x);
    return r.success ? [r.data] : [];
  });
const role = (kind: string | null | undefined) => DictateRole.safeParse(kind).data ?? "dictation";

/** A tagged state in words: `downloading 3.2/27.1 MB`, `failed: why`, `checking`. */
function stateWords(raw: unknown): string {
  const t = Tagged.safeParse(raw);
  if (!t.success) return "";
  const d = t.data;
  if (d.state === "downloading" && d.total) {
    return `downloading ${d.file ?? ""} ${(d.got ?? 0) / 1e6 | 0}/${d.total / 1e6 | 0} MB`;
  }
  if (d.state === "fresh") return `fresh (${d.release ?? "?"})`;
  const why = d.reason ?? d.error;
  return why ? `${d.state}: ${why}` : d.state;
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
  const refused = s.refusedReads.dictate_models;
  if (!m && refused) {
    return (
      <p class="notice" role="status" data-testid="models-refused">
        No models page: {refused.replace(/^dictate_models: /, "")}
      </p>
    );
  }
  if (!m) return <p class="muted">Reading the models…</p>;
  const installed = list(Installed, m.installed);
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
            {list(Row, m.rows).map((r) => {
              const have = r.installed || installed.some((i) => i.file === r.file);
              const using = m.in_use.some((u) => u.file === r.file);
              return (
                <tr key={r.variant} data-testid={`model-${r.variant}`}>
                  <td>
                    <b>{r.variant}</b>{" "}
                    <span class="muted">
                      {r.display_name ?? ""} · {r.kind ?? ""} · {r.license ?? ""}
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
  const results = list(Result, props.m.results);
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
