/**
 * `tools/deno.sh task conformance ws://HOST:PORT/socket [--seat org/project/label]`: checks a
 * running forge against the spec's client-visible rules - the greeting and settings frame,
 * subscribe / snapshot / update order, `seq` and `span` continuity, `seat_range` repair, `more`
 * paging to the first turn, refusals' shape and words, the origin check, keepalive answers, the
 * inbound bounds, and every frame on protocol/'s schemas - and prints a table, rule by rule,
 * naming the spec section. Exits 1 when a rule failed, 2 on bad arguments or no server.
 *
 * It changes nothing a person would notice: the stream rules read the first live seat (or the
 * one `--seat` names) and make it emit by cancelling a queued prompt nobody queued, which the
 * CLI answers without a turn. A rule that needs a live seat is skipped, saying why, when none is.
 */
import { type Context, liveSeat, RULES, type Verdict } from "./conformance/rules.ts";

/** Runs every rule; a rule that throws fails with its words. */
export async function runConformance(
  url: string,
  seat: string | null = null,
): Promise<{ id: string; section: string; verdict: Verdict }[]> {
  const ctx: Context = { url, clients: [], seat: "" };
  const out = [];
  try {
    ctx.seat = await liveSeat(ctx, seat);
    for (const rule of RULES) {
      let verdict: Verdict;
      try {
        verdict = await rule.check(ctx);
      } catch (err) {
        verdict = { ok: false, note: (err as Error).message };
      }
      out.push({ id: rule.id, section: rule.section, verdict });
    }
  } finally {
    await Promise.all(ctx.clients.map((c) => c.close().catch(() => {})));
  }
  return out;
}

/** The table as printed: one line per rule. */
export function table(rows: { id: string; section: string; verdict: Verdict }[]): string {
  const mark = (v: Verdict) => "skip" in v ? "SKIP" : v.ok ? "PASS" : "FAIL";
  const note = (v: Verdict) => "skip" in v ? v.skip : v.note;
  const lines = rows.map((r) =>
    `| ${mark(r.verdict)} | ${r.id} | ${r.section} | ${note(r.verdict).replaceAll("|", "/")} |`
  );
  return ["| result | rule | spec section | what was seen |", "|---|---|---|---|", ...lines]
    .join("\n");
}

if (import.meta.main) {
  const args = [...Deno.args];
  const at = args.indexOf("--seat");
  const seat = at >= 0 ? args.splice(at, 2)[1] ?? null : null;
  const url = args[0];
  if (!url || !/^wss?:\/\//.test(url)) {
    console.error("usage: deno task conformance ws://HOST:PORT/socket [--seat org/project/label]");
    Deno.exit(2);
  }
  let rows;
  try {
    rows = await runConformance(url, seat);
  } catch (err) {
    console.error(`conformance: ${url}: ${(err as Error).message}`);
    Deno.exit(2);
  }
  console.log(table(rows));
  const failed = rows.filter((r) => "ok" in r.verdict && !r.verdict.ok);
  console.log(
    failed.length === 0
      ? `conformance: every rule held (${rows.length} rules)`
      : `conformance: ${failed.length} rule(s) failed: ${failed.map((r) => r.id).join(", ")}`,
  );
  Deno.exit(failed.length === 0 ? 0 : 1);
}
