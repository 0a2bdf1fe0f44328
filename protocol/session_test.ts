// The session fields forge itself authors are read through their schemas, not as JSON: a value
// off its shape is refused by the validating client with the field's path and what it expected.
// spec: What a subject carries > session (state, composer, terminal, file_index), file_index_changed.
import { assertEquals } from "../tests/assert.ts";
import { seatSnapshot } from "../tests/web_seat_snapshot.ts";
import { WireChecker } from "./validate.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const subject = { session: key };
const what = `snapshot of ${JSON.stringify(subject)}`;
const terminal = {
  id: 1,
  shell: "/bin/bash",
  cwd: "/w",
  cols: 80,
  rows: 24,
  alive: true,
  state: { kind: "running", source: "foreground_pgrp", command: "vim" },
  title: null,
  held: false,
};
const failure = {
  message: "claude exited (code 1) while idle",
  code: 1,
  signal: null,
  stderr_tail: "",
};
const index = { entries: { src: { entries: { "a.ts": null } }, "README.md": null } };

/** The checker's words for a seat snapshot with `patch` laid over the state and composer. */
function check(patch: Record<string, unknown>): string[] {
  const base = seatSnapshot(0, [], "s1", key);
  const { state, composer, ...rest } = patch as {
    state?: Record<string, unknown>;
    composer?: Record<string, unknown>;
  };
  const data = {
    ...base,
    ...rest,
    state: { ...base.state, ...state },
    composer: { ...base.composer, ...composer },
  };
  return new WireChecker().check({ kind: "snapshot", subject, data });
}

Deno.test("session: what forge builds for its own fields reads", () => {
  assertEquals(
    check({
      state: {
        queue: [{ uuid: "u1", source: "cron", text: "hi" }],
        dictate_overrides: { styling: "casual" },
      },
      composer: { notice: { text: "landed words", carried: true, surface: null } },
      terminal,
      file_index: index,
      failure,
    }),
    [],
  );
});

Deno.test("session: a queued prompt's source is a PromptSource", () => {
  assertEquals(check({ state: { queue: [{ uuid: "u1", source: "mars", text: "hi" }] } }), [
    `${what}: state.queue.0.source: expected one of "you", "cron", "gotify", "slack", "peer", "forge", got "mars"`,
  ]);
});

Deno.test("session: the composer's notice is a carried landing", () => {
  assertEquals(check({ composer: { notice: { text: "words", carried: false, surface: null } } }), [
    `${what}: composer.notice.carried: expected true, got true or false`,
  ]);
});

Deno.test("session: dictate_overrides holds the three axes alone", () => {
  assertEquals(check({ state: { dictate_overrides: { styling: "loud" } } }), [
    `${what}: state.dictate_overrides.styling: expected one of "formal", "semi_formal", "casual", "verbatim", got "loud"`,
  ]);
});

Deno.test("session: the terminal is its summary", () => {
  assertEquals(check({ terminal: { ...terminal, cols: "80" } }), [
    `${what}: terminal.cols: expected a number, got a string`,
  ]);
});

Deno.test("session: the file index is a tree of {entries}, a file's value null", () => {
  const bad = { entries: { src: { entries: { "a.ts": true } } } };
  assertEquals(check({ file_index: bad }), [
    `${what}: file_index.entries.src.entries.a.ts: expected an object, got true or false`,
  ]);
});

Deno.test("session: a failure is forge's words and the exit", () => {
  assertEquals(check({ failure: { ...failure, code: "1" } }), [
    `${what}: failure.code: expected a number, got a string`,
  ]);
});

Deno.test("file_index_changed: its index is the same tree as the session's", () => {
  const w = new WireChecker();
  const frame = (i: unknown) => ({
    kind: "update",
    update: { file_index_changed: { key, index: i } },
    seq: 0,
    span: 1,
  });
  assertEquals(w.check(frame(index)), []);
  assertEquals(w.check(frame({ files: ["a.ts"] })), [
    "update: file_index_changed: index.entries: missing (expected an object); index: unknown field `files`",
  ]);
});
