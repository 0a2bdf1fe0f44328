import { z } from "zod";

/** An AskUserQuestion call's input: the questions the model asked, each with its options. */
export const AskedQuestions = z.object({
  questions: z.array(
    z.object({
      question: z.string(),
      header: z.string().optional(),
      multiSelect: z.boolean().optional(),
      options: z.array(z.object({ label: z.string() }).loose()).optional(),
    }).loose(),
  ),
}).loose();
export type AskedQuestions = z.infer<typeof AskedQuestions>;

/**
 * The answers in an AskUserQuestion result, keyed by question: the CLI's result reads
 * `... answered: "Which colour?"="Blue", "Which sizes?"="Large, Small". ...`. A result in another
 * shape reads as no answers (the result's own words are drawn then).
 */
export function answersOf(result: string): Map<string, string> {
  const answers = new Map<string, string>();
  for (const m of result.matchAll(/"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g)) {
    answers.set(unescape(m[1]), unescape(m[2]));
  }
  return answers;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}
