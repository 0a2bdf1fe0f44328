import { assertEquals } from "../../../../tests/assert.ts";
import { answersOf, AskedQuestions } from "./question_answers.ts";

Deno.test("question answers: the CLI's result read back as each question's answer", () => {
  const result = 'Your questions have been answered: "Which colour?"="Blue", ' +
    '"Which sizes?"="Large, Small". You can now continue with the user\'s answers in mind.';
  assertEquals([...answersOf(result)], [["Which colour?", "Blue"], [
    "Which sizes?",
    "Large, Small",
  ]]);
});

Deno.test("question answers: quotes inside an answer; a result in another shape", () => {
  assertEquals([...answersOf('"Say \\"hi\\"?"="yes \\"loud\\""')], [['Say "hi"?', 'yes "loud"']]);
  assertEquals(answersOf("The user declined to answer.").size, 0);
});

Deno.test("question answers: the call's input as the model sends it", () => {
  const input = {
    questions: [{
      question: "Which colour?",
      header: "Colour",
      multiSelect: false,
      options: [{ label: "Blue", description: "cool" }],
    }],
  };
  assertEquals(AskedQuestions.safeParse(input).success, true);
  assertEquals(AskedQuestions.safeParse({ command: "x" }).success, false);
});
