// spec: Editing the config - hundreds of random edit sequences over the hand-written samples:
// the text always parses, holds exactly what the edits say, and keeps every comment that
// belongs to nothing the edits removed or replaced.
import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import { applyEdits, type Edit } from "./edits.ts";
import { fixture, type Plain, plain } from "../../../tests/config_write_support.ts";

type Obj = { [key: string]: Plain };

/** mulberry32: a small seeded PRNG, so a failure names a seed that replays it. */
class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

const PIECES = [
  "a",
  "Zed",
  " ",
  ".",
  "#",
  '"',
  "'",
  "\\",
  "\n",
  "\t",
  "é",
  "😀",
  "[x]",
  "=",
  '"""',
  "\x7f",
];
const str = (r: Rng) => Array.from({ length: 1 + r.int(4) }, () => r.pick(PIECES)).join("");
const name = (r: Rng, taken: string[]): string => {
  for (;;) {
    const n = r.pick(["n", "new.", "x y", "dot.ted"]) + r.int(1000);
    if (!taken.includes(n)) return n;
  }
};

/** The standalone comment lines of full.toml, each with the key or entry that owns it. */
const FULL_OWNERS: [string, string | null][] = [
  ["# forge.toml - hand-written, read by forge at startup.", null],
  ["# Keep secrets out of the repo: this file lives in ~/.claude/forge/.", null],
  ["# Base layer of every seat's environment; accounts and projects layer on top.", "env"],
  ["# Loopback only; the reverse proxy on the tailnet forwards to it.", "server"],
  ['  # "http://old.example:8080",', "server.allowed_origins"],
  ["# The local gateway rotates accounts on 429s.", "gateway"],
  ["# ---------------------------------------------------------------- accounts", null],
  ["# Subspace: the team's main Anthropic account.", "accounts.Subspace"],
  ["# Backup through OpenRouter; base_url must end in /api.", "accounts.Router"],
  ['# base_url = "https://old.example/api"   (kept for reference)', "accounts.Router"],
  ["# z.ai, used for the night batch only.", "accounts.Zed.ai night"],
  ["# ---------------------------------------------------------------- orgs", null],
  ["  # The storefront; the lead starts with forge.", "orgs.Acme.projects.shop"],
  [
    "  # Back office: its env carries a briefing that runs over several lines.",
    "orgs.Acme.projects.backoffice",
  ],
  [
    "# this line is inside a string, not a comment",
    "orgs.Acme.projects.backoffice.env.TEAM_BRIEFING",
  ],
  ["# ---------------------------------------------------------------- connectors", null],
  ["# friends: the weekend workspace, polled at the default rate", "slack.friends"],
  ["# Plugins update once at boot when this is on.", "plugins"],
  ["# end of file", "plugins"],
];

/** One generated step: the edits, the same change applied to the expected data, what it touches. */
interface Step {
  edits: Edit[];
  apply(d: Obj): void;
  touches: string[];
  bad?: boolean;
}

const o = (v: Plain | undefined): Obj => v as Obj;
const arr = (d: Obj, k: string): Obj[] => (Array.isArray(d[k]) ? d[k] : []) as Obj[];
const e = (
  area: string,
  key_path: string,
  pattern: string,
  op: Edit["op"],
  value?: unknown,
): Edit => ({
  area,
  key_path,
  pattern,
  op,
  value,
});

/** Picks a step over the current data; each branch mirrors the writer's documented semantics. */
function step(r: Rng, d: Obj): Step {
  const accounts = arr(d, "accounts");
  const orgs = arr(d, "orgs");
  const slack = arr(d, "slack");
  const acct = accounts.length ? r.pick(accounts) : null;
  const org = orgs.length ? r.pick(orgs) : null;
  const projects = org ? arr(org, "projects") : [];
  const proj = projects.length ? r.pick(projects) : null;
  const aPath = acct && `accounts.${acct.display_name}`;
  const pPath = org && proj && `orgs.${org.name}.projects.${proj.name}`;
  const setAt = (
    parent: Obj,
    key: string,
    v: unknown,
  ) => (v === null ? delete parent[key] : (parent[key] = v as Plain));
  const kind = r.int(13);
  if (kind === 0 || kind === 1) {
    // A scalar, or a clear (null), on a table key or a repeated entry's key.
    const targets: [string, string, Obj | null, string, () => unknown][] = [
      ["server.port", "server.port", null, "port", () => 1 + r.int(65535)],
      ["server.bind", "server.bind", null, "bind", () => str(r)],
      ["gateway.streak_count", "gateway.streak_count", null, "streak_count", () => r.int(9)],
      ["plugins.auto_update", "plugins.auto_update", null, "auto_update", () => r.next() < 0.5],
    ];
    if (acct) {
      targets.push([`${aPath}.base_url`, "accounts[].base_url", acct, "base_url", () => str(r)]);
    }
    if (proj) {
      targets.push([
        `${pPath}.auto_start`,
        "orgs[].projects[].auto_start",
        proj,
        "auto_start",
        () => true,
      ]);
    }
    if (proj) {
      targets.push([
        `${pPath}.max_workers`,
        "orgs[].projects[].max_workers",
        proj,
        "max_workers",
        () => r.int(5),
      ]);
    }
    const [kp, pattern, parent, leaf, gen] = r.pick(targets);
    const v = kind === 1 ? null : gen();
    return {
      edits: [e(kp.split(".")[0], kp, pattern, "set", v)],
      apply: (x) => {
        const table = kp.split(".")[0];
        if (parent) setAt(parent, leaf, v);
        else if (v !== null) setAt((x[table] ??= {}) as Obj, leaf, v);
        else if (x[table]) setAt(o(x[table]), leaf, v); // clearing an absent key adds no table
      },
      touches: [kp],
    };
  }
  if (kind === 2 || kind === 3) {
    // A key of a map table: root env, an account's env or a project's env.
    const homes: [string, string, Obj | null][] = [["env", "env.*", null]];
    if (acct) homes.push([`${aPath}.env`, "accounts[].env.*", acct]);
    if (proj) homes.push([`${pPath}.env`, "orgs[].projects[].env.*", proj]);
    const [base, pattern, owner] = r.pick(homes);
    const existing = Object.keys(o(owner ? owner.env : d.env) ?? {});
    const key = existing.length && r.next() < 0.5
      ? r.pick(existing)
      : str(r).replaceAll("\x7f", "K");
    const op = r.pick(["set", "set", "remove"] as const);
    const v = op === "remove" || r.next() < 0.2 ? null : str(r);
    const edit = e("env", `${base}.${key}`, pattern, op, op === "remove" ? undefined : v);
    return {
      edits: [edit],
      apply: (x) => {
        const host = owner ?? x;
        if (v === null) {
          if (host.env) delete o(host.env)[key];
        } else o((host.env ??= {}) as Plain)[key] = v;
      },
      touches: [`${base}.${key}`],
    };
  }
  if (kind === 4 && org) {
    // A whole list, reshuffled, trimmed and grown.
    const lists: [string, string, Obj, string][] = [[
      `orgs.${org.name}.accounts`,
      "orgs[].accounts",
      org,
      "accounts",
    ]];
    if (d.server) {
      lists.push([
        "server.allowed_origins",
        "server.allowed_origins",
        o(d.server),
        "allowed_origins",
      ]);
    }
    const [kp, pattern, parent, leaf] = r.pick(lists);
    const old = (parent[leaf] ?? []) as Plain[];
    const next = [
      ...old.filter(() => r.next() < 0.7),
      ...Array.from({ length: r.int(3) }, () => str(r)),
    ];
    if (r.next() < 0.3) next.reverse();
    return {
      edits: [e("x", kp, pattern, "set", next)],
      apply: () => (parent[leaf] = next),
      touches: [kp],
    };
  }
  if (kind === 5 && proj) {
    // A whole table: some keys kept, some dropped, some new.
    const old = Object.entries(o(proj.env) ?? {});
    const next = Object.fromEntries([...old.filter(() => r.next() < 0.5), [str(r), str(r)]]);
    return {
      edits: [e("projects", `${pPath}.env`, "orgs[].projects[].env", "set", next)],
      apply: () => (proj.env = next),
      touches: [`${pPath}.env`],
    };
  }
  if (kind === 6) {
    const n = name(r, accounts.map((a) => String(a.display_name)));
    const fields: Obj = { provider: "anthropic", token: str(r), models: ["m1"] };
    if (r.next() < 0.5) fields.env = { K: str(r) };
    return {
      edits: [e("accounts", `accounts.${n}`, "", "add", fields)],
      apply: (x) => ((x.accounts ??= []) as Obj[]).push({ display_name: n, ...fields }),
      touches: [],
    };
  }
  if (kind === 7 && org) {
    const n = name(r, projects.map((p) => String(p.name)));
    const fields: Obj = { path: `~/${str(r)}`, auto_start: r.next() < 0.5 };
    return {
      edits: [e("projects", `orgs.${org.name}.projects.${n}`, "", "add", fields)],
      apply: () => ((org.projects ??= []) as Obj[]).push({ name: n, ...fields }),
      touches: [],
    };
  }
  if (kind === 8) {
    const n = name(r, slack.map((s) => String(s.workspace)));
    const token = str(r);
    return {
      edits: [e("connectors", `slack.${n}`, "", "add", { token })],
      apply: (x) => ((x.slack ??= []) as Obj[]).push({ workspace: n, token }),
      touches: [],
    };
  }
  if (kind === 9 && acct) {
    const models = (acct.models ?? []) as string[];
    if (models.length && r.next() < 0.5) {
      const m = r.pick(models);
      return {
        edits: [e("models", `${aPath}.models.${m}`, "", "remove")],
        apply: () => {
          acct.models = models.filter((x) => x !== m);
          for (const t of ["model_slugs", "model_aliases"]) {
            const held = o(acct[t]);
            if (!held || !(m in held)) continue;
            delete held[m];
            if (Object.keys(held).length === 0) delete acct[t];
          }
        },
        touches: [`${aPath}.models`, `${aPath}.model_slugs`, `${aPath}.model_aliases`],
      };
    }
    const m = name(r, models);
    return {
      edits: [e("models", `${aPath}.models.${m}`, "", "add", { slug: `v/${m}` })],
      apply: () => {
        acct.models = [...models, m];
        o((acct.model_slugs ??= {}) as Plain)[m] = `v/${m}`;
      },
      touches: [],
    };
  }
  if (kind === 10) {
    // Remove a whole entry: an account, a project, an org, a Slack workspace or [gotify].
    const picks: [string, string, () => void][] = [];
    // An array of tables whose last entry goes is no longer in the file at all.
    const cut = (host: Obj, key: string, list: Obj[], item: Obj) => {
      list.splice(list.indexOf(item), 1);
      if (list.length === 0) delete host[key];
    };
    if (acct && aPath) picks.push(["accounts", aPath, () => cut(d, "accounts", accounts, acct)]);
    if (org && proj && pPath) {
      picks.push(["projects", pPath, () => cut(org, "projects", projects, proj)]);
    }
    if (org) picks.push(["orgs", `orgs.${org.name}`, () => cut(d, "orgs", orgs, org)]);
    if (slack.length) {
      const s = r.pick(slack);
      picks.push(["connectors", `slack.${s.workspace}`, () => cut(d, "slack", slack, s)]);
    }
    if (d.gotify) picks.push(["connectors", "gotify", () => delete d.gotify]);
    if (picks.length) {
      const [area, kp, run] = r.pick(picks);
      return { edits: [e(area, kp, "", "remove")], apply: run, touches: [kp] };
    }
  }
  if (kind === 11 && (acct || proj)) {
    // A whole env table set or cleared, however it is written (inline, dotted, [table]).
    const [kp, pattern, host] = proj && (!acct || r.next() < 0.5)
      ? [`${pPath}.env`, "orgs[].projects[].env", proj]
      : [`${aPath}.env`, "accounts[].env", acct as Obj];
    const next = r.next() < 0.4 ? null : Object.fromEntries([[str(r), str(r)]]);
    return {
      edits: [e("env", kp, pattern, "set", next)],
      apply: () => setAt(host, "env", next),
      touches: [kp],
    };
  }
  // An edit naming an entry the file lacks: refused, the text unchanged.
  const ghost = name(r, accounts.map((a) => String(a.display_name)));
  return {
    edits: [e("accounts", `accounts.${ghost}.token`, "accounts[].token", "set", "t")],
    apply: () => {},
    touches: [],
    bad: true,
  };
}

Deno.test("random edit sequences: always TOML, exactly the edited data, comments kept", () => {
  const full = fixture("full.toml");
  const sources: [string, string, [string, string | null][]][] = [
    ["full", full, FULL_OWNERS],
    ["full, CRLF", full.replaceAll("\n", "\r\n"), FULL_OWNERS],
    ["compact", fixture("compact.toml"), [[fixture("compact.toml").split("\n")[0], null]]],
  ];
  let applied = 0;
  let refused = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const r = new Rng(seed);
    const [label, source, owners] = sources[seed % sources.length];
    let text = source;
    const want = plain(text);
    const touched: string[] = [];
    const steps = 1 + r.int(10);
    for (let i = 0; i < steps; i++) {
      const s = step(r, want);
      const res = applyEdits(text, s.edits);
      const where = `seed ${seed} (${label}) step ${i}: ${JSON.stringify(s.edits)}`;
      if (s.bad) {
        deepEqual(res.ok ? "applied" : res.key_path, s.edits[0].key_path, where);
        refused++;
        continue;
      }
      if (!res.ok) throw new Error(`${where}: ${res.message}`);
      s.apply(want);
      touched.push(...s.touches);
      text = res.text;
      applied++;
      // It parses (plain() runs smol-toml) and holds exactly what the edits say.
      deepEqual(plain(text), want, where);
      // Every comment line whose owner no edit removed or replaced is still there, as it was.
      const lines = new Set(text.split(/\r?\n/));
      const gone = (owner: string) => touched.some((t) => owner === t || owner.startsWith(t + "."));
      for (const [line, owner] of owners) {
        if (owner === null || !gone(owner)) {
          ok(lines.has(line), `${where}: lost ${JSON.stringify(line)}`);
        }
      }
      // A CRLF file stays CRLF.
      if (source.includes("\r\n")) equal(/[^\r]\n/.test(text), false, where);
    }
  }
  ok(applied > 1000, `only ${applied} edits applied`);
  ok(refused > 50, `only ${refused} bad edits tried`);
});
