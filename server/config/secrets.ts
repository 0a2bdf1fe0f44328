import type { ForgeConfig } from "./types.ts";
import { isPlainObject } from "./validate.ts";

/**
 * A key whose value is a credential: its value is never said. An ntfy topic is one too: on a
 * public server whoever knows it reads every push.
 */
export const SECRET_KEY = /(token|passw|secret|private|credential|api_?key|(^|[._])key$|topic$)/i;

/**
 * Every credential the config holds (tokens of the accounts, connectors and channels, an ntfy
 * topic, any value under a secret-looking name, the password in any URL): taken out of a push's
 * words before it leaves (notify), and out of every forge.log record (log.ts).
 */
export function secretsOf(config: ForgeConfig): string[] {
  const out: string[] = [];
  const walk = (name: string, v: unknown) => {
    if (typeof v === "string" && v.length > 0) {
      if (SECRET_KEY.test(name)) out.push(v);
      const password = URL.parse(v)?.password;
      if (password) out.push(password, decoded(password));
    } else if (isPlainObject(v) || Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(k, x);
    }
  };
  walk("", config.areas);
  walk("", config.env);
  // Whole entries: a token by its name, a password in a base_url or an api_url, the env.
  for (const a of config.accounts) walk("", a);
  for (const w of config.slack ?? []) walk("", w);
  for (const o of config.orgs) for (const p of o.projects) walk("", p.env);
  return [...new Set(out)];
}

/** A URL's percent-encoded password as typed; one whose escapes do not decode is kept as is. */
function decoded(password: string): string {
  try {
    return decodeURIComponent(password);
  } catch {
    // `%zz` or a lone UTF-8 byte: the encoded form, already listed, is the one a text can hold.
    return password;
  }
}

/**
 * The forms each secret is looked for in, longest first so none is left half said: the secret
 * itself and the same with its whitespace folded (a text folded a line, or a header trimmed it).
 * A "secret" shorter than `min` would blank ordinary words, so it is not looked for.
 */
export function secretForms(secrets: readonly string[], min: number): string[] {
  const forms = secrets.flatMap((s) => [s, s.replace(/\s+/g, " ").trim()]);
  return [...new Set(forms)].filter((s) => s.length >= min).sort((a, b) => b.length - a.length);
}

/** `text` with every form (secretForms) replaced by `•••`. */
export function hideSecrets(text: string, forms: readonly string[]): string {
  return forms.reduce((t, s) => t.replaceAll(s, "•••"), text);
}

/**
 * The secret forms of the config in force, for forge.log: worked out once per loaded config (the
 * log asks on every record). Values under 8 characters are left: a record is paths, ids and
 * words, and a short value blanked there would garble it.
 */
export function logSecrets(config: () => ForgeConfig | null): () => readonly string[] {
  let memo: { config: ForgeConfig; forms: string[] } | null = null;
  return () => {
    const now = config();
    if (now === null) return [];
    if (memo?.config !== now) memo = { config: now, forms: secretForms(secretsOf(now), 8) };
    return memo.forms;
  };
}
