/** A terminal's size in character cells. */
export interface CellSize {
  cols: number;
  rows: number;
}

/** The server takes sizes in 1..1000 each way (spec: terminal_resize); a fit keeps to it. */
const MOST = 1000;
/** Below these a shell's prompt and a line of output stop being readable at all. */
const FEWEST_COLS = 20;
const FEWEST_ROWS = 5;

/**
 * The most whole cells of `cell` pixels that fit a `box` of pixels, so a phone's terminal is as
 * wide as its screen rather than 80 columns that scroll sideways. The cell is measured from the
 * drawn view (its screen's pixels over its own cols and rows), so the font's real metrics count.
 * null when the box or the cell was not measured yet (a view not laid out has no pixels).
 */
export function fitCells(
  box: { width: number; height: number },
  cell: { width: number; height: number },
): CellSize | null {
  if (!(cell.width > 0 && cell.height > 0 && box.width > 0 && box.height > 0)) return null;
  const whole = (room: number, each: number, fewest: number) =>
    Math.min(MOST, Math.max(fewest, Math.floor(room / each)));
  return {
    cols: whole(box.width, cell.width, FEWEST_COLS),
    rows: whole(box.height, cell.height, FEWEST_ROWS),
  };
}
