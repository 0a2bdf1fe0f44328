/**
 * Test and bench support: a long conversation of numbered turns, each a real CLI user row and
 * assistant row (fixtures/transcripts/plain_text.jsonl) with fresh ids and its own words -
 * "Prompt N: what is the answer?" and "Answer N." - so a reader can tell which turn is on screen
 * and that the walk reached the first. And the remembered seat that pages it: a session book
 * entry naming the transcript, as after a restart with no process running the seat.
 */

const ROOT = new URL("../", import.meta.url);
export const HISTORY_SESSION = "5e5e0000-0000-4000-8000-000000000000";

/** The words of turn `n` (1-based). */
export const promptOf = (n: number) => `Prompt ${n}: what is the answer?`;
export const answerOf = (n: number) => `Answer ${n}.`;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const uuid = (n: number, part: number) => `${hex(n, 8)}-${hex(part, 4)}-4000-8000-5e5e00000000`;

/** Writes `turns` numbered turns to `path` under `HISTORY_SESSION`. */
export async function writeNumberedHistory(path: string, turns: number, cwd: string) {
  const rows = (await Deno.readTextFile(new URL("fixtures/transcripts/plain_text.jsonl", ROOT)))
    .split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const user = rows.find((r) => r.type === "user");
  const assistant = rows.find((r) => r.type === "assistant");
  const lines: string[] = [];
  let parent: string | null = null;
  const t0 = Date.parse("2026-12-01T00:00:00Z");
  for (let n = 1; n <= turns; n++) {
    const u = uuid(n, 1);
    const a = uuid(n, 2);
    const at = (k: number) => new Date(t0 + n * 1000 + k).toISOString();
    lines.push(JSON.stringify({
      ...user,
      parentUuid: parent,
      promptId: uuid(n, 3),
      uuid: u,
      turnAttributionKey: u,
      message: { role: "user", content: promptOf(n) },
      timestamp: at(0),
      cwd,
      sessionId: HISTORY_SESSION,
    }));
    lines.push(JSON.stringify({
      ...assistant,
      parentUuid: u,
      uuid: a,
      requestId: `req_${hex(n, 24)}`,
      requestRef: uuid(n, 4),
      message: {
        ...assistant.message,
        id: `msg_${hex(n, 24)}`,
        content: [{ type: "text", text: answerOf(n) }],
      },
      timestamp: at(500),
      cwd,
      sessionId: HISTORY_SESSION,
    }));
    parent = a;
  }
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
}

/**
 * Makes `slot`'s seat remember a session of `turns` numbered turns: the transcript is written
 * beside the world and the session book (the config dir's state) names it.
 */
export async function rememberHistory(
  worldDir: string,
  slot: { org: string; project: string; label: string },
  turns: number,
) {
  const cwd = `${worldDir}/${slot.project}`;
  const transcript = `${worldDir}/${HISTORY_SESSION}.jsonl`;
  await writeNumberedHistory(transcript, turns, cwd);
  const state = `${worldDir}/forge/state/seats`;
  await Deno.mkdir(state, { recursive: true });
  await Deno.writeTextFile(
    `${state}/sessions.json`,
    JSON.stringify({
      [`${slot.org}/${slot.project}/${slot.label}`]: {
        slot,
        session_id: HISTORY_SESSION,
        cwd,
        transcript,
      },
    }),
  );
}
