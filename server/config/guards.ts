import { parse } from "smol-toml";
import { isPlainObject } from "./validate.ts";

/** What a guard needs to know about the running fleet. */
export interface FleetFacts {
  /** Projects (by name) with a live seat right now. */
  liveProjects(): Set<string>;
  /** Accounts (by display_name) a live seat runs under right now. */
  liveAccounts(): Set<string>;
}

type Entry = Record<string, unknown>;

/**
 * The save guards: identity diffs between the file before and after a batch, so a rename is a
 * removal too. A project or account the save leaves absent is checked exactly as a removal is.
 * spec: Editing the config ("The guards are identity diffs"). Returns the refusal sentence
 * naming what it found, or null. The guards live on the server: no client can skip them.
 */
export function settingsGuard(before: string, after: string, fleet: FleetFacts): string | null {
  // The guards run before the loader: a candidate that does not parse is the loader's to refuse.
  let a: Entry, b: Entry;
  try {
    a = parse(before) as Entry;
    b = parse(after) as Entry;
  } catch {
    // Text the loader refuses is the validator's to name (it runs next): no guard applies.
    return null;
  }
  const projects = (t: Entry) =>
    list(t.orgs).flatMap((o) => list(o.projects).map((p) => String(p.name)));
  const gone = (x: string[], y: string[]) => x.filter((n) => !y.includes(n));

  const live = fleet.liveProjects();
  for (const name of gone(projects(a), projects(b))) {
    if (live.has(name)) {
      return `project \`${name}\` has a live seat; close its seats before removing or renaming it`;
    }
  }
  const afterOrgs = new Set(list(b.orgs).map((o) => String(o.name)));
  for (const org of list(a.orgs)) {
    const name = String(org.name);
    const held = list(org.projects).map((p) => String(p.name));
    if (!afterOrgs.has(name) && held.length > 0) {
      return `org \`${name}\` still has projects (${
        held.join(", ")
      }); remove them before removing the org`;
    }
  }
  const accounts = (t: Entry) => list(t.accounts).map((x) => String(x.display_name));
  const bound = fleet.liveAccounts();
  for (const name of gone(accounts(a), accounts(b))) {
    const binders = list(a.orgs).filter((o) =>
      strings(o.accounts).concat(strings(o.fallback_accounts)).includes(name)
    );
    if (binders.length > 0) {
      return `account \`${name}\` is bound by org ${
        binders.map((o) => `\`${o.name}\``).join(", ")
      }; unbind it first`;
    }
    if (bound.has(name)) return `account \`${name}\` has live seats running under it`;
  }
  return null;
}

const list = (v: unknown): Entry[] => Array.isArray(v) ? v.filter(isPlainObject) : [];
const strings = (v: unknown): string[] => Array.isArray(v) ? v.map(String) : [];
