// The argv order forge emits (the original forge's, flag for flag), stream-json both ways,
// --input-format last.
import { deepStrictEqual, throws } from "node:assert/strict";
import { buildArgv } from "./argv.ts";

Deno.test("buildArgv: the minimal argv", () => {
  deepStrictEqual(buildArgv(), [
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-prompt-tool",
    "stdio",
    "--include-partial-messages",
    "--input-format",
    "stream-json",
  ]);
});

Deno.test("buildArgv: every option, in the original's order, extras before --input-format", () => {
  deepStrictEqual(
    buildArgv({
      model: "claude-sonnet-4-5",
      permissionMode: "acceptEdits",
      resume: "5e551011-1d00-4a6b-9c3e-0123456789ab",
      effort: "high",
      extraArgs: [["--worktree", "w1"], ["add-dir", "/x"], ["bare", null]],
    }),
    [
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "claude-sonnet-4-5",
      "--permission-prompt-tool",
      "stdio",
      "--permission-mode",
      "acceptEdits",
      "--resume",
      "5e551011-1d00-4a6b-9c3e-0123456789ab",
      "--effort",
      "high",
      "--include-partial-messages",
      "--worktree",
      "w1",
      "--add-dir",
      "/x",
      "--bare",
      "--input-format",
      "stream-json",
    ],
  );
});

Deno.test("buildArgv: default permission mode is omitted; --session-id sits where --resume would", () => {
  const argv = buildArgv({ permissionMode: "default", sessionId: "s-1" });
  deepStrictEqual(argv.includes("--permission-mode"), false);
  deepStrictEqual(argv.slice(5, 7), ["--session-id", "s-1"]);
});

Deno.test("buildArgv: refuses resume with session id, empty and managed extra flags", () => {
  throws(() => buildArgv({ resume: "a", sessionId: "b" }), /resume and session_id are exclusive/);
  throws(() => buildArgv({ extraArgs: [["--", null]] }), /has no flag name/);
  throws(
    () => buildArgv({ extraArgs: [["input-format", "text"]] }),
    /--input-format is set by the driver/,
  );
  throws(() => buildArgv({ extraArgs: [["--model", "x"]] }), /--model is set by the driver/);
});
