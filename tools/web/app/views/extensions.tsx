import { useState } from "preact/hooks";
import type { PluginsInventorySnapshot, PluginUpdateRun } from "../../../../protocol/mod.ts";
import { client, useApp } from "./use.ts";
import { ReadRefused } from "./read_refused.tsx";
import { Said } from "../draw/said.tsx";

/**
 * The Extensions page: installed plugins with what each brings, the marketplaces and their
 * health, the PATH checks of their language servers, the last update run streamed row by row,
 * and the six actions the server has (install, update, update all, check, marketplace add and
 * repair), each answered in the server's words. spec: What a subject carries > extensions;
 * "What is not here" (the six actions).
 */
export function ExtensionsPage() {
  const s = useApp();
  const ext = s.extensions;
  const [pluginId, setPluginId] = useState("");
  const [source, setSource] = useState("");
  if (!ext && s.refusedReads.extensions) {
    return <ReadRefused subject="extensions" page="plugins page" testId="extensions-refused" />;
  }
  if (!ext) return <p class="muted">Reading the plugins…</p>;
  const inv = ext.snapshot;
  return (
    <div class="extensions" data-testid="extensions">
      <header class="page-head">
        <h1>Plugins</h1>
        <button
          type="button"
          data-testid="plugins-check"
          onClick={() => client().command("plugin_check_updates", null)}
        >
          Check for updates
        </button>
        <button
          type="button"
          data-testid="plugins-update-all"
          onClick={() => client().command("plugin_update_all", null)}
        >
          Update all
        </button>
      </header>
      {s.pluginNews.length > 0 && (
        <ul class="news" data-testid="plugin-news">
          {s.pluginNews.map((n, i) => (
            <li class={n.ok ? "ok" : "reason"} key={`${n.at}:${i}`}>
              <Said text={n.text} />
            </li>
          ))}
        </ul>
      )}
      {!inv
        ? <p class="notice">No plugins root resolves here (CLAUDE_CONFIG_DIR or HOME).</p>
        : <Inventory inv={inv} />}
      {ext.lsp.length > 0 && (
        <section>
          <h2>Language servers</h2>
          <ul>
            {ext.lsp.map((l) => (
              <li key={`${l.plugin}:${l.server}`}>
                {l.plugin} · {l.server} <code>{l.command}</code>{" "}
                <span class={l.on_path ? "ok" : "reason"}>
                  {l.on_path ? "on PATH" : "not on PATH"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {ext.update_run && <Run run={ext.update_run} />}
      <section class="plugin-actions">
        <h2>Add</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (pluginId.trim()) client().command("plugin_install", { plugin_id: pluginId.trim() });
          }}
        >
          <input
            data-testid="plugin-id"
            placeholder="plugin@marketplace"
            value={pluginId}
            onInput={(e) => setPluginId(e.currentTarget.value)}
          />
          <button type="submit" data-testid="plugin-install">Install</button>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (source.trim()) {
              client().command("plugin_marketplace_add", { source: source.trim() });
            }
          }}
        >
          <input
            data-testid="marketplace-source"
            placeholder="owner/repo, a URL or a path"
            // Room for the whole placeholder: the default 20 characters cut it off.
            size={28}
            value={source}
            onInput={(e) => setSource(e.currentTarget.value)}
          />
          <button type="submit" data-testid="marketplace-add">Add marketplace</button>
        </form>
      </section>
    </div>
  );
}

function Inventory(props: { inv: PluginsInventorySnapshot }) {
  const { inv } = props;
  return (
    <>
      <section>
        <h2>Installed</h2>
        {inv.installed.length === 0 && <p class="muted">No plugin is installed.</p>}
        <table class="plugins" data-testid="plugins-installed">
          <tbody>
            {inv.installed.map((p) => {
              const c = inv.components.find((x) => x.plugin === p.id);
              return (
                <tr key={`${p.id}:${p.scope}`} data-testid={`plugin-${p.id}`}>
                  <td>
                    <b>{p.id}</b> <span class="muted">{p.version ?? "?"} · {p.scope}</span>
                  </td>
                  <td class="muted">{p.enabled ? "enabled" : "disabled"}</td>
                  <td>
                    {c && (
                      <span class="muted">
                        {[
                          c.skills.length && `${c.skills.length} skills`,
                          c.agents.length && `${c.agents.length} agents`,
                          c.commands.length && `${c.commands.length} commands`,
                          c.hooks.length && `hooks: ${c.hooks.join(", ")}`,
                          c.mcp && "MCP",
                        ].filter(Boolean).join(" · ") || "no components"}
                      </span>
                    )}
                    {c?.load_error && <span class="reason">{c.load_error}</span>}
                    {c?.available_version && c.available_version !== p.version && (
                      <span class="chip">update: {c.available_version}</span>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      data-testid="plugin-update"
                      onClick={() => client().command("plugin_update", { plugin_id: p.id })}
                    >
                      Update
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Marketplaces</h2>
        {inv.marketplace_health.length === 0 && (
          <p class="muted" data-testid="no-marketplace">
            No marketplace is added: add one below, by owner/repo, URL or path.
          </p>
        )}
        <ul data-testid="marketplaces">
          {inv.marketplace_health.map((m) => (
            <li key={m.name} data-testid={`marketplace-${m.name}`}>
              <b>{m.name}</b> <span class="muted">{m.source ?? ""} · {m.available} plugins</span>
              {m.load_error && <span class="reason">{m.load_error}</span>}
              {m.drifted && <span class="reason">its clone sits outside the plugins root</span>}
              {(m.load_error || m.drifted) && (
                <button
                  type="button"
                  onClick={() =>
                    client().command("plugin_marketplace_repair", { marketplace: m.name })}
                >
                  Repair
                </button>
              )}
            </li>
          ))}
        </ul>
        {inv.marketplace.length > 0 && (
          <details>
            <summary>{inv.marketplace.length} plugins offered</summary>
            <ul>
              {inv.marketplace.map((o) => (
                <li key={o.plugin_id}>
                  {o.plugin_id} <span class="muted">{o.description ?? ""}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
    </>
  );
}

/** The last update run or check: one row per plugin, moving as the run's progress arrives. */
function Run(props: { run: PluginUpdateRun }) {
  const { run } = props;
  return (
    <section data-testid="update-run">
      <h2>
        Last {run.trigger} run <span class="muted">{run.finished ? "finished" : "running…"}</span>
      </h2>
      <table class="plugins">
        <tbody>
          {run.rows.map((r) => (
            <tr
              key={`${r.plugin_id}:${r.scope}`}
              data-testid={`run-${r.plugin_id}`}
              data-status={r.status}
            >
              <td>{r.plugin_id}</td>
              <td class="muted">{r.scope}</td>
              <td>
                <span class={`chip ${r.status}`}>{r.status.replaceAll("_", " ")}</span>
              </td>
              <td class="muted">{r.installed_version ?? "?"} → {r.available_version ?? "?"}</td>
              <td class="reason">{r.detail ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
