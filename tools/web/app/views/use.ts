import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import type { ForgeClient } from "../net/client.ts";
import type { Forges } from "../net/forges.ts";
import type { AppState } from "../net/store.ts";

let registry: Forges | null = null;
let focused: ForgeClient | null = null;

/** The page's forges; set once by main.tsx before the first draw. */
export function setForges(forges: Forges): void {
  registry = forges;
  focused = forges.list[0] ?? null;
}

export function forges(): Forges {
  if (!registry) throw new Error("forge web: the forges are not started");
  return registry;
}

/** The forge the page's address is about (its seat, board, settings): set by the app's route. */
export function setFocus(c: ForgeClient): void {
  focused = c;
}

/** The focused forge's client: the one a seat page, the board or the settings speak to. */
export function client(): ForgeClient {
  if (!focused) throw new Error("forge web: the client is not started");
  return focused;
}

/** A part of the page drawn for one forge (a home section) names it here; else the focused. */
const Scope = createContext<ForgeClient | null>(null);
export const ForgeScope = Scope.Provider;

/** The forge this part of the page draws: its scope's, else the focused one. */
export function useForge(): ForgeClient {
  return useContext(Scope) ?? client();
}

/** That forge's state, re-drawing the calling view on every change. */
export function useApp(): AppState {
  const c = useForge();
  const [, bump] = useState(0);
  useEffect(() => c.store.listen(() => bump((n) => n + 1)), [c]);
  return c.state;
}

/** Every forge, re-drawing the calling view when any of them (or the list) moves. */
export function useForges(): Forges {
  const f = forges();
  const [, bump] = useState(0);
  useEffect(() => f.listen(() => bump((n) => n + 1)), [f]);
  return f;
}

/**
 * The page's address for a path on one forge (`seat/<org>/<project>/<label>`, `board`): with
 * one forge as it always was, with several qualified by the forge's host (`#/@<host>/...`).
 */
export function pageHref(c: ForgeClient, path: string): string {
  return registry && registry.list.length > 1 ? `#/@${c.host}/${path}` : `#/${path}`;
}
