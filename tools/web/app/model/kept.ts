/** The browser's local storage, where it gives it (a private window may refuse it). */
export function pageStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
