import { answersOf, type AskedQuestions } from "./question_answers.ts";

/**
 * An AskUserQuestion call read back: each question with its header, and the answer chosen (read
 * from the call's result), instead of the input's JSON. A result that names no answers (the
 * person declined, or the call is still waiting) draws its own words under the questions.
 */
export function QuestionCall(props: { input: AskedQuestions; result: string | null }) {
  const answers = answersOf(props.result ?? "");
  return (
    <div class="tool-head asked" data-testid="tool-question">
      <b>Asked</b>
      <dl>
        {props.input.questions.map((q, i) => (
          <div class="asked-one" key={i}>
            <dt>
              {q.header ? <span class="muted">{`${q.header}: `}</span> : null}
              {q.question}
            </dt>
            <dd data-testid="asked-answer">
              {answers.get(q.question) ?? (
                <span class="muted">
                  {(q.options ?? []).map((o) => o.label).join(" · ") || "no answer"}
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {props.result !== null && answers.size === 0 && (
        <div class="muted tool-out-words">{props.result}</div>
      )}
    </div>
  );
}
