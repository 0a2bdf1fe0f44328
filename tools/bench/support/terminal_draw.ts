/** Draws VT streams in headless xterms, for comparing a late viewer's repaint with a replay. */
import xt from "@xterm/headless";

const { Terminal: Xterm } = xt;

/** What a stream drew: the last `rows + scrollback` lines (right-trimmed) and the cursor. */
export interface Drawn {
  lines: string[];
  cursor: [number, number];
  buffer: string;
}

/** A headless xterm fed a stream piece by piece, read as a repaint carrying `scrollback` lines. */
export class Replay {
  #term: InstanceType<typeof Xterm>;

  constructor(readonly cols = 80, readonly rows = 24, readonly scrollback = 200) {
    this.#term = new Xterm({ cols, rows, scrollback: 1000, allowProposedApi: true });
  }

  async feed(pieces: (string | Uint8Array)[]): Promise<void> {
    for (const piece of pieces) await new Promise<void>((r) => this.#term.write(piece, r));
  }

  drawn(): Drawn {
    const b = this.#term.buffer.active;
    const lines: string[] = [];
    for (let y = Math.max(0, b.length - this.rows - this.scrollback); y < b.length; y++) {
      lines.push(b.getLine(y)?.translateToString(true) ?? "");
    }
    return { lines, cursor: [b.cursorX, b.cursorY], buffer: b.type };
  }

  dispose(): void {
    this.#term.dispose();
  }
}

/** What `stream` draws on a fresh 80x24 xterm. */
export async function drawn(stream: (string | Uint8Array)[]): Promise<Drawn> {
  const replay = new Replay();
  try {
    await replay.feed(stream);
    return replay.drawn();
  } finally {
    replay.dispose();
  }
}
