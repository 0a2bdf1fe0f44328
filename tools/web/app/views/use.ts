import { useEffect, useState } from "preact/hooks";
import type { ForgeClient } from "../net/client.ts";
import type { AppState } from "../net/store.ts";

let current: ForgeClient | null = null;

/** The page's one client; set once by main.tsx before the first draw. */
export function setClient(client: ForgeClient): void {
  current = client;
}

export function client(): ForgeClient {
  if (!current) throw new Error("forge web: the client is not started");
  return current;
}

/** The store's state, re-drawing the calling view on every change. */
export function useApp(): AppState {
  const c = client();
  const [, bump] = useState(0);
  useEffect(() => c.store.listen(() => bump((n) => n + 1)), [c]);
  return c.state;
}
