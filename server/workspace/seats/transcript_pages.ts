import type { CliFrame, Wire } from "../../../protocol/mod.ts";
import {
  encodeCursor,
  pageRows,
  parseRowCursor,
  rowCursor,
  rowsAtUuids,
} from "../conversation/mod.ts";
import type { WireTurn } from "./window.ts";

/** What `page` carries (beside `conversation`) and the snapshot's `conversation` holds. A type
 * alias, so it is checked against Wire where it is sent. */
export type PageBody = {
  turns: WireTurn[];
  cursor: string | null;
  cron_names?: Record<string, string>;
};

/** The page that ends the history: nothing above (spec: "An empty page carries cursor: null"). */
export const EMPTY_PAGE: PageBody = { turns: [], cursor: null };

/** How a page is read off disk: its byte bound, and the tool record bound each frame passes. */
export interface DiskRead {
  pageBytes: number;
  cap(frame: CliFrame): CliFrame;
}

/**
 * The disk side of a conversation (the window in memory is the other, window.ts): the page of
 * whole turns above the transcript row at `before`, its cursor a row cursor of `session`. No
 * transcript is the empty page. spec: "The cursor is a position" - below the window a page is
 * read by the row the page above stopped at.
 */
export async function pageAboveRow(
  path: string | null,
  session: string,
  before: number,
  n: number,
  read: DiskRead,
): Promise<PageBody> {
  if (!path) return { ...EMPTY_PAGE };
  const got = await pageRows(path, rowCursor(before), n, { pageBytes: read.pageBytes });
  const turns: WireTurn[] = got.turns.map((t) => ({
    key: null,
    messages: [...t.rows.map((r) => read.cap(r.frame)), ...t.forged] as Wire[],
  }));
  const at = got.cursor === null ? null : parseRowCursor(got.cursor);
  return {
    turns,
    cursor: at === null ? null : encodeCursor({ side: "row", session, offset: at }),
  };
}

/**
 * A cursor whose window is gone: the page above the row its turn's `anchor` uuid names, on disk.
 * A row the file does not carry is the empty page: what it ends is the history, not the seat.
 */
export async function pageAboveAnchor(
  path: string | null,
  session: string,
  anchor: string,
  n: number,
  read: DiskRead,
): Promise<PageBody> {
  if (!path) return { ...EMPTY_PAGE };
  const at = (await rowsAtUuids(path, [anchor])).get(anchor);
  if (at === undefined) return { ...EMPTY_PAGE };
  return await pageAboveRow(path, session, at, n, read);
}

/**
 * Names the schedule of every fired prompt a page carries (a user frame whose uuid the cron
 * tick minted): spec: page > cron_names, absent when the page holds none.
 */
export function withCronNames(
  body: PageBody,
  cronName: ((promptUuid: string) => string | undefined) | undefined,
): PageBody {
  if (!cronName) return body;
  const names: Record<string, string> = {};
  for (const turn of body.turns) {
    for (const m of turn.messages as { type?: unknown; uuid?: unknown }[]) {
      if (m?.type !== "user" || typeof m.uuid !== "string") continue;
      const name = cronName(m.uuid);
      if (name !== undefined) names[m.uuid] = name;
    }
  }
  return Object.keys(names).length > 0 ? { ...body, cron_names: names } : body;
}
