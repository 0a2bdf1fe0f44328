/**
 * Test support: what the crash soak (tests/crash_soak.ts) checks after every restart. Each check
 * answers the problems it found, in words; an empty list is a clean restart.
 */
import { referenceRows } from "./conversation_support.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { childrenOf, commandOf, cwdOf } from "./seats_harness.ts";
import type { Slot } from "../protocol/mod.ts";

type Msg = Record<string, unknown>;
type Turn = { messages: Msg[] };
type Page = { turns: Turn[]; cursor: string | null };

/** Every process below `pid`, deepest last. */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of childrenOf(p)) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** The claude CLIs this world runs: their command line names the CLI and their env the world. */
export function worldClis(dir: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const pid = Number(e.name);
    // The CLI binary in stream-json mode (forge's own process names the CLI in its flags).
    if (!/^\S*\/claude .*--input-format stream-json/.test(commandOf(pid))) continue;
    try {
      const env = Deno.readTextFileSync(`/proc/${pid}/environ`);
      if (env.includes(`CLAUDE_CONFIG_DIR=${dir}/claude`)) out.push(pid);
    } catch {
      // Gone between the listing and the read: not a process left behind.
    }
  }
  return out;
}

/** No CLI of this world runs outside the live forge's own tree (none at all without one). */
export function orphans(dir: string, forgePid: number | null): string[] {
  const mine = new Set(forgePid === null ? [] : [forgePid, ...descendants(forgePid)]);
  return worldClis(dir).filter((p) => !mine.has(p)).map((p) =>
    `an orphan CLI ${p} (${commandOf(p).slice(0, 80)}) runs outside forge`
  );
}

/**
 * A temp file of forge's left anywhere under `dir` (the worktrees are the person's own) by a
 * forge that is gone: one last written at or before `downAt` (ms, a moment no forge ran), which
 * the boot since should have swept. A newer one is a write of the live forge under way (its
 * worker book written as a respawned worker comes up, say): it is renamed over its file when
 * the write lands, and is not a leftover.
 */
export function temps(dir: string, downAt: number): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const e of Deno.readDirSync(at)) {
      const path = `${at}/${e.name}`;
      if (e.isDirectory && !/\/(worktrees|browser|pulse)$/.test(path)) walk(path);
      else if (e.isFile && /\.keeper-tmp$|\.tmp$|\.partial$/.test(e.name)) {
        const written = modifiedAt(path);
        if (written !== null && written <= downAt) found.push(path);
      }
    }
  };
  walk(dir);
  return found.map((p) => `a temp file was left: ${p}`);
}

/** When `path` was last written (ms), null once it is gone (a write landed between the looks). */
function modifiedAt(path: string): number | null {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? null;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** A seat's history held against its transcript; `behind`: forge has yet to show the newest. */
export interface HistoryCheck {
  problems: string[];
  rows: number;
  /**
   * Every difference is transcript rows at its end that forge has not shown yet (a turn still
   * running, its frame on the way): asked again, it may match. Never set for a row shown twice,
   * out of order, or lost from the middle.
   */
  behind: boolean;
}

/** A seat's history as forge pages it, against the CLI's transcript of the same session. */
export async function historyMatches(
  c: ForgeClient,
  slot: Slot,
  transcript: string,
): Promise<HistoryCheck> {
  // A session nobody prompted yet has no transcript: nothing to show.
  const read = await referenceRows(transcript).catch((err) => {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  });
  const rows = read.map((r) => r.frame.uuid).filter((u): u is string => typeof u === "string");
  const pages: Page[] = [];
  for (let before: string | null = null;;) {
    c.send({ kind: "more", conversation: slot, before, turns: 50 });
    const page = await c.next((m) => m.kind === "page" || m.kind === "error", 30_000);
    if (page.kind !== "page") {
      return { problems: [`more refused: ${JSON.stringify(page)}`], rows: 0, behind: false };
    }
    pages.push(page as unknown as Page);
    before = (page as unknown as Page).cursor;
    if (before === null) break;
  }
  const shown = pages.reverse().flatMap((p) => p.turns.flatMap((t) => t.messages))
    .map((m) => m.uuid).filter((u): u is string => typeof u === "string");
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const u of shown) {
    if (seen.has(u)) problems.push(`row ${u} is shown twice`);
    seen.add(u);
  }
  const inTranscript = new Set(rows);
  const carried = shown.filter((u) => inTranscript.has(u));
  let behind = false;
  if (JSON.stringify(carried) !== JSON.stringify(rows)) {
    const lost = rows.filter((u) => !seen.has(u));
    behind = problems.length === 0 &&
      JSON.stringify(carried) === JSON.stringify(rows.slice(0, rows.length - lost.length));
    problems.push(
      `history differs from the transcript (${rows.length} rows, ${carried.length} shown` +
        `${lost.length ? `, lost ${lost.slice(0, 3).join(" ")}` : ", out of order"})`,
    );
  }
  return { problems, rows: rows.length, behind };
}

/** The prompts (last user text) of the main requests carrying `needle` (the fake API's log). */
export function promptTexts(requests: unknown[], needle: string): string[] {
  const text = (m: Msg | undefined) => {
    const c = m?.content;
    if (typeof c === "string") return c;
    return Array.isArray(c)
      ? c.map((b: Msg) => (b.type === "text" ? String(b.text) : "")).join("")
      : "";
  };
  // The last user message is the turn's prompt (the CLI may append its environment after it).
  const prompt = (messages: Msg[] = []) => messages.findLast((m) => m.role === "user");
  return (requests as { kind: string; body: { messages?: Msg[] } }[])
    .filter((r) => r.kind === "main")
    .map((r) => text(prompt(r.body.messages)))
    .filter((t) => t.includes(needle));
}

/** How many main requests' prompt carries `needle`. */
export function promptsWith(requests: unknown[], needle: string): number {
  return promptTexts(requests, needle).length;
}

/** How many user rows in every transcript under `projects` carry `needle` as their prompt. */
export async function transcriptPrompts(projects: string, needle: string): Promise<number> {
  return (await promptRows(projects, needle)).length;
}

/** The first transcript prompt carrying `needle`, as the CLI recorded it ("" when none). */
export async function firePrompt(projects: string, needle: string): Promise<string> {
  return (await promptRows(projects, needle))[0] ?? "";
}

async function promptRows(projects: string, needle: string): Promise<string[]> {
  const out: string[] = [];
  for await (const dir of Deno.readDir(projects)) {
    if (!dir.isDirectory) continue;
    for await (const f of Deno.readDir(`${projects}/${dir.name}`)) {
      if (!f.name.endsWith(".jsonl")) continue;
      for (const { frame } of await referenceRows(`${projects}/${dir.name}/${f.name}`)) {
        if (frame.type !== "user") continue;
        const content = (frame.message as Msg | undefined)?.content;
        const said = typeof content === "string"
          ? content
          : Array.isArray(content)
          ? (content as Msg[]).map((b) => (b.type === "text" ? String(b.text) : "")).join("")
          : "";
        if (said.includes(needle)) out.push(said);
      }
    }
  }
  return out;
}

/**
 * The workers: every worktree has a remembered record; every live record its worktree and CLI.
 * Answers too the live workers' labels, and those of the live workers whose CLI runs.
 */
export function workersHold(
  stateDir: string,
  forgePid: number,
): { problems: string[]; live: string[]; running: string[] } {
  const problems: string[] = [];
  let book: Record<string, { slot: Slot; worktree: string; live: boolean; spawning?: boolean }> =
    {};
  try {
    book = JSON.parse(Deno.readTextFileSync(`${stateDir}/workers/workers.json`));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) {
      problems.push(`the worker book did not read: ${err}`);
    }
  }
  const records = Object.values(book);
  const trees = `${stateDir}/worktrees/Acme/alpha`;
  let dirs: string[] = [];
  try {
    dirs = [...Deno.readDirSync(trees)].filter((e) => e.isDirectory).map((e) =>
      `${trees}/${e.name}`
    );
  } catch {
    // No worktree was ever made: none can be left behind.
  }
  for (const d of dirs) {
    if (!records.some((r) => r.worktree === d && !r.spawning)) {
      problems.push(`worktree ${d} belongs to no remembered worker`);
    }
  }
  const cwds = new Set(descendants(forgePid).map(cwdOf));
  const live = records.filter((r) => r.live && !r.spawning);
  const running: string[] = [];
  for (const r of live) {
    if (!dirs.includes(r.worktree)) continue; // its worktree went: remembered, not respawned
    if (cwds.has(r.worktree)) running.push(r.slot.label);
    else problems.push(`live worker ${r.slot.label} has no CLI running`);
  }
  for (const r of records.filter((r) => r.spawning)) {
    problems.push(`worker ${r.slot.label} is still marked spawning after the boot`);
  }
  return { problems, live: live.map((r) => r.slot.label), running };
}
