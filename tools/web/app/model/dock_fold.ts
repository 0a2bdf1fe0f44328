/**
 * Whether the asks dock is folded away, kept in the browser's local storage so the choice stands
 * across reloads: a phone's screen is mostly the dock when several asks wait, and a person reading
 * the conversation folds it. One choice for every seat and forge: it is the person's, not a seat's.
 */
export const DOCK_FOLDED_KEY = "forge.dock.folded";

/** The storage the choice lives in (model/kept.ts); none, and nothing is kept. */
export type FoldStore = Pick<Storage, "getItem" | "setItem">;

/** Unfolded unless the person folded it. */
export function readDockFolded(store: FoldStore | null): boolean {
  return store?.getItem(DOCK_FOLDED_KEY) === "1";
}

export function keepDockFolded(store: FoldStore | null, folded: boolean): void {
  try {
    store?.setItem(DOCK_FOLDED_KEY, folded ? "1" : "0");
  } catch {
    // A full or refused storage: the fold still holds for this page, only not across a reload.
  }
}
