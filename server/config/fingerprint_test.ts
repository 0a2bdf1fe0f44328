import { match, notStrictEqual as notEqual, strictEqual as equal } from "node:assert/strict";
import { fingerprint } from "./fingerprint.ts";

Deno.test("fingerprint: 16 lowercase hex digits of the SHA-256 of the raw text", () => {
  // sha256("") = e3b0c44298fc1c149afbf4c8996fb924...
  equal(fingerprint(""), "e3b0c44298fc1c14");
  match(fingerprint("port = 1\n"), /^[0-9a-f]{16}$/);
});

Deno.test("fingerprint: any change to the raw text moves it, even a comment or a newline", () => {
  const base = "[server]\nport = 8790\n";
  notEqual(fingerprint(base), fingerprint(base + "# note\n"));
  notEqual(fingerprint(base), fingerprint(base.replace("\n", "\r\n")));
  equal(fingerprint(base), fingerprint("[server]\nport = 8790\n"));
});
