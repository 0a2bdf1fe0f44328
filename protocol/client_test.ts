// What a client sends is typed from protocol/'s schemas: a command is one COMMANDS row's wire
// form, so a misspelt name or a wrong field does not compile as a ClientMessage, while the
// server, which reads clients that are not TypeScript, still refuses it in words.
import { assertEquals } from "../tests/assert.ts";
import { ClientMessage } from "./client.ts";
import { decodeCommandLenient } from "./command_wire.ts";
import { describeIssues } from "./issues.ts";
import { parseIgnoringUnknownFields } from "./lenient.ts";

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

Deno.test("ClientMessage: browser_input's event is read as a gesture at the envelope", () => {
  const read = (event: unknown) => {
    const r = parseIgnoringUnknownFields(ClientMessage, { kind: "browser_input", seq: 1, event });
    return r.success ? { event: (r.data as { event: unknown }).event, ignored: r.ignored } : {
      why: describeIssues(r.error),
    };
  };
  assertEquals(read({ type: "press", x: 1, y: 2 }), {
    event: { type: "press", x: 1, y: 2 },
    ignored: [],
  });
  assertEquals(read({ type: "fly" }), {
    why: 'event.type: expected one of "press", "move", "wheel", "key", "text", got "fly"',
  });
  assertEquals(read({ type: "wheel", x: 1, y: 2, dx: 0 }), {
    why: "event.dy: missing (expected a number)",
  });
  // A field the gesture does not know is set aside, as every client message's is.
  assertEquals(read({ type: "text", text: "a", pressure: 1 }), {
    event: { type: "text", text: "a" },
    ignored: ["event.pressure"],
  });
});
