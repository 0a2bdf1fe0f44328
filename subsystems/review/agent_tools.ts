/**
 * The `review` family (the original forge's tool family): the agent reads the reviews a person
 * filed on its branch and answers them. Scope = the caller's project and the branch its checkout is
 * on. A reply is attributed to the worker's label (a lead's to `agent`); a reply moves an open
 * thread to addressed and never reopens a resolved one. Every write reaches every viewer of the
 * branch (activity.ts), and the turn's end tells the reviewer what the agent did.
 */
import { z } from "zod";
import {
  defineTool,
  type ToolCall,
  type ToolHandler,
  toolHandlers,
  type ToolResult,
  type ToolRole,
} from "../../server/subsystem.ts";
import { LEAD_LABEL } from "../../server/workspace/workspace.ts";
import { type ReviewActivity, roundOf } from "./activity.ts";
import { type ReviewScopeKey, scopeOfSeat } from "./scope.ts";
import type { ReviewThread, ThreadStore } from "./threads.ts";

const ANY: readonly ToolRole[] = ["lead", "worker"];

export const REVIEW_TOOLS = [
  defineTool({
    name: "review__list",
    family: "review",
    description: "List the reviews a person submitted on your branch, newest first: each round's " +
      "id, number, summary and how many of its comments are open, addressed, resolved or " +
      "outdated. Reviews on the project's other branches are named in a second block.",
    input: z.object({}).strict(),
    roles: ANY,
    readOnly: true,
  }),
  defineTool({
    name: "review__get",
    family: "review",
    description: "Read one review round: every comment with its file, line, side, status, the " +
      "captured lines it was made on and its whole thread (the person's turns are `you`).",
    input: z.object({ review_id: z.string().min(1).describe("from review__list") }).strict(),
    roles: ANY,
    readOnly: true,
  }),
  defineTool({
    name: "review__reply",
    family: "review",
    description: "Reply on one review comment's thread (say what you changed, or why not). An " +
      "open comment becomes addressed; a resolved one stays resolved.",
    input: z.object({
      comment_id: z.string().min(1).describe("a comment_id from review__get"),
      // Trimmed before the check: a reply of blanks says nothing, and is refused as empty.
      text: z.string().trim().min(1).describe("your reply"),
    }).strict(),
    roles: ANY,
  }),
  defineTool({
    name: "review__resolve",
    family: "review",
    description: "Mark one review comment resolved once it is dealt with.",
    input: z.object({ comment_id: z.string().min(1) }).strict(),
    roles: ANY,
  }),
] as const;

interface Deps {
  store: ThreadStore;
  activity: ReviewActivity;
  shuttingDown: () => boolean;
}

const failed = (tool: string, why: string): ToolResult => ({
  text: `${tool}: ${why}`,
  isError: true,
});
const json = (value: unknown): string => JSON.stringify(value, null, 2);

/** The family's handlers. */
export function reviewTools(deps: Deps): Record<string, ToolHandler> {
  const { store, activity } = deps;
  const scoped =
    <I>(tool: string, run: (scope: ReviewScopeKey, input: I) => Promise<ToolResult>) =>
    async (input: I, call: ToolCall): Promise<ToolResult> => {
      const scope = await scopeOfSeat(call.seat, deps.shuttingDown);
      return "why" in scope ? failed(tool, scope.why) : await run(scope, input);
    };
  const readBoth = async (tool: string, scope: ReviewScopeKey) => {
    const { threads, reviews } = await store.readScope(scope.project, scope.branch);
    if (threads.outcome !== "read") return failed(tool, threads.value);
    if (reviews.outcome !== "read") return failed(tool, reviews.value);
    return { threads: threads.value, rounds: reviews.value };
  };
  /** Reply and resolve: one thread changed, pushed to every viewer, noted for the turn's end. */
  const write = (
    tool: string,
    change: (t: ReviewThread, at: string, who: string, input: { text?: string }) => void,
    done: "replied" | "resolved",
  ) =>
  async (fields: { comment_id: string; text?: string }, call: ToolCall): Promise<ToolResult> => {
    const scope = await scopeOfSeat(call.seat, deps.shuttingDown);
    if ("why" in scope) return failed(tool, scope.why);
    const id = fields.comment_id;
    const who = call.seat.slot.label === LEAD_LABEL ? "agent" : call.seat.slot.label;
    const t = await store.changeThread(
      scope.project,
      scope.branch,
      id,
      (t, at) => change(t, at, who, fields),
    );
    if (t === "missing") {
      return failed(tool, `no comment ${id} on ${scope.project}@${scope.branch}`);
    }
    if (t === null) {
      return failed(
        tool,
        `the review threads of ${scope.project}@${scope.branch} could not be read or written`,
      );
    }
    await activity.threadsChanged(scope);
    activity.note(call.seat.slot, scope, who, id, done);
    return { text: json({ comment_id: id, status: t.status }) };
  };

  return toolHandlers(REVIEW_TOOLS)({
    review__list: scoped("review__list", async (scope) => {
      const read = await readBoth("review__list", scope);
      if ("text" in read) return read;
      const others = (await store.branchesWithReviews(scope.project))
        .filter((b) => b !== scope.branch);
      const elsewhere = `Other branches of ${scope.project} with reviews: ${others.join(", ")}.`;
      if (read.rounds.length === 0 && others.length > 0) {
        return failed("review__list", `no review on ${scope.branch}. ${elsewhere}`);
      }
      const rows = [...read.rounds].sort((a, b) => b.number - a.number).map((round) => {
        const members = read.threads.filter((t) => roundOf(t, read.rounds) === round.id);
        const count = (s: string) => members.filter((t) => t.status === s).length;
        return {
          review_id: round.id,
          number: round.number,
          ...(round.summary === null ? {} : { summary: round.summary }),
          created_at: round.created_at,
          comment_count: members.length,
          open: count("open"),
          addressed: count("addressed"),
          resolved: count("resolved"),
          outdated: count("outdated"),
        };
      });
      return { text: json(rows), ...(others.length > 0 ? { more: [elsewhere] } : {}) };
    }),
    review__get: scoped("review__get", async (scope, { review_id: id }) => {
      const read = await readBoth("review__get", scope);
      if ("text" in read) return read;
      const round = read.rounds.find((r) => r.id === id);
      if (!round) {
        return failed("review__get", `no review ${id} on ${scope.project}@${scope.branch}`);
      }
      const numbers = new Map(read.rounds.map((r) => [r.id, r.number]));
      const comments = read.threads.filter((t) => roundOf(t, read.rounds) === round.id).map((
        t,
      ) => ({
        comment_id: t.id,
        file: t.anchor.path,
        line: t.anchor.line,
        side: t.anchor.side,
        status: t.status,
        context: t.anchor.context,
        thread: t.comments.map((c) => ({
          author: c.author === "user" ? "you" : c.author.agent.label,
          text: c.text,
          at: c.at,
          review: c.review_id === null ? null : numbers.get(c.review_id) ?? null,
        })),
      }));
      return {
        text: json({ review_id: round.id, number: round.number, summary: round.summary, comments }),
      };
    }),
    review__reply: write("review__reply", (t, at, who, { text }) => {
      t.comments.push({
        author: { agent: { label: who } },
        text: (text ?? "").trim(),
        at,
        review_id: null,
      });
      if (t.status === "open") t.status = "addressed";
    }, "replied"),
    review__resolve: write("review__resolve", (t) => {
      t.status = "resolved";
    }, "resolved"),
  });
}
