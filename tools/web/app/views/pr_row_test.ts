import { assertEquals } from "../../../../tests/assert.ts";
import { prWords } from "./pr_row.tsx";

// spec: What a subject carries > session, `pr, closes` - the PR #N -> closes #M line.

Deno.test("pr row: the PR, its draft state and the issues it closes", () => {
  const pr = { number: 42, url: "https://example.invalid/o/r/pull/42", is_draft: true };
  const issue = (number: number) => ({
    number,
    url: `https://example.invalid/o/r/issues/${number}`,
  });
  assertEquals(prWords(pr, [issue(7), issue(9)]), "PR #42 (draft) -> closes #7, #9");
  assertEquals(prWords({ ...pr, is_draft: false }, []), "PR #42");
  assertEquals(prWords(null, []), "No open pull request known for this branch");
});
