import type { Violation } from "./validate.ts";
import { isPlainObject } from "./validate.ts";

/**
 * Rules across a section's keys (the original forge's forge.toml rules, and the spec's for
 * [vault]), checked at load beside the per-key ones. Each is placed on the key it names: a missing
 * key on its table's header, a repeated label on the repeat, a slug on the key that is not a model.
 *
 * An account with neither `token` nor `config_dir` is not refused here: forge reads it as a
 * `config_dir` account on the CLI's default login dir (`defaultClaudeDir`: `$CLAUDE_CONFIG_DIR`,
 * else `$HOME/.claude`; docs/accounts.md). The original's required `token` comes from a version
 * whose accounts had no `config_dir` (that key is in its history only).
 */
export function sectionRules(tree: Record<string, unknown>): Violation[] {
  return [...accountRules(tree), ...connectorRules(tree), ...vaultRules(tree)];
}

/** Providers whose endpoint is not Anthropic's own, so the account names it (as in the original). */
const NEEDS_BASE_URL = ["codex", "openrouter", "zai"];

function accountRules(tree: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  arr(tree.accounts).forEach((a, i) => {
    const at = ["accounts", i];
    const name = typeof a.display_name === "string" ? a.display_name : `[${i}]`;
    if (typeof a.provider === "string" && NEEDS_BASE_URL.includes(a.provider)) {
      if (typeof a.base_url !== "string" || a.base_url.trim() === "") {
        out.push({
          path: [...at, "base_url"],
          message: `account \`${name}\` (provider ${a.provider}) needs a base_url`,
        });
      } else if (a.provider === "openrouter" && !/\/api\/?$/.test(a.base_url.trim())) {
        out.push({
          path: [...at, "base_url"],
          message: `account \`${name}\`: an openrouter base_url must end in /api, not ${
            JSON.stringify(a.base_url)
          }`,
        });
      }
    }
    const models = Array.isArray(a.models) ? a.models.map(String) : [];
    for (const field of ["model_slugs", "model_aliases"]) {
      const table = a[field];
      if (!isPlainObject(table)) continue;
      for (const [model, value] of Object.entries(table)) {
        if (!models.includes(model)) {
          out.push({
            path: [...at, field, model],
            message: `account \`${name}\`: ${field} names \`${model}\`, which its models list ` +
              `does not (${models.length ? models.join(", ") : "none"})`,
          });
        } else if (field === "model_aliases" && Array.isArray(value) && value.length === 0) {
          out.push({
            path: [...at, field, model],
            message: `account \`${name}\`: model_aliases for \`${model}\` is an empty list`,
          });
        }
      }
    }
  });
  return out;
}

function connectorRules(tree: Record<string, unknown>): Violation[] {
  const out: Violation[] = [];
  // A [gotify] table present is Gotify turned on: it needs both keys, as in the original.
  if (isPlainObject(tree.gotify)) {
    for (const k of ["url", "client_token"]) {
      if (!nonEmpty(tree.gotify[k])) {
        out.push({ path: ["gotify", k], message: `[gotify] is present but names no ${k}` });
      }
    }
  }
  // The workspace label is how a subscription and a draft name a workspace: unique.
  const labels = arr(tree.slack).map((w) => String(w.workspace));
  labels.forEach((label, i) => {
    if (labels.indexOf(label) !== i) {
      out.push({
        path: ["slack", i, "workspace"],
        message: `slack workspace \`${label}\` is declared twice (the label is unique)`,
      });
    }
  });
  return out;
}

/**
 * `[vault] enabled = true` with no server to reach: refused at load, so a settings save that turns
 * the vault on carries its server_url in the same batch (spec: Editing the config, "a section's
 * mutually required keys go in the same one"). The email stays a use-time refusal.
 */
function vaultRules(tree: Record<string, unknown>): Violation[] {
  const v = tree.vault;
  if (!isPlainObject(v) || v.enabled !== true || nonEmpty(v.server_url)) return [];
  return [{ path: ["vault", "server_url"], message: "[vault] is enabled but names no server_url" }];
}

const nonEmpty = (v: unknown): boolean => typeof v === "string" && v.trim() !== "";
const arr = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter(isPlainObject) : [];
