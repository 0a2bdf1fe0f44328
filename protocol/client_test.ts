// What a client sends is typed from protocol/'s schemas: a command is one COMMANDS row's wire
// form, so a misspelt name or a wrong field does not compile as a ClientMessage, while the
// server, which reads clients that are not TypeScript, still refuses it in words.
import { assertEquals } from "../tests/assert.ts";
import type { ClientMessage } from "./client.ts";
import { decodeCommandLenient } from "./command.ts";

const key = { org: "Acme", project: "proj", label: "lead" };

Deno.test("ClientMessage: a command is typed as its wire form", () => {
  const sent: ClientMessage[] = [
    { kind: "command", command: { prompt: { key, text: "hi", attachments: [] } } },
    { kind: "command", command: "vault_lock" },
    // @ts-expect-error: a misspelt command name is no command
    { kind: "command", command: { promt: { key, text: "hi", attachments: [] } } },
    // @ts-expect-error: a field the command does not have
    { kind: "command", command: { cancel: { key, text: "hi" } } },
    // @ts-expect-error: a unit variant crosses as its bare name, never with fields
    { kind: "command", command: { vault_lock: {} } },
    // @ts-expect-error: a command with fields cannot cross as its bare name
    { kind: "command", command: "prompt" },
  ];
  const read = sent.map((m) => {
    if (m.kind !== "command") throw new Error(m.kind);
    try {
      const { command, ignored } = decodeCommandLenient(m.command);
      return [command.name, ...ignored].join(" ignoring ");
    } catch (err) {
      return (err as Error).message;
    }
  });
  assertEquals(read, [
    "prompt",
    "vault_lock",
    "unknown command `promt`",
    // The server sets an unknown field aside (serde's default): only the type catches it.
    "cancel ignoring text",
    "`vault_lock` is a unit variant: send its name alone",
    '`prompt` needs its fields: {"prompt": {...}}',
  ]);
});
