import { type ClientMessage, parseSlotName, type Subject, type Wire } from "../protocol/mod.ts";
import { ConnectFailed, ForgeClient, type Frame } from "./client_lib.ts";
import { portNumber } from "../server/boot/flags.ts";

/**
 * The protocol client. Prints every frame the server sends as one JSON line (binary frames as
 * `{"binary": kind, "bytes": n}`), so people and tests can drive forge from a shell:
 *
 *   deno task client subscribe home
 *   deno task client subscribe org/project/label
 *   deno task client more org/project/label 10
 *   deno task client command '{"cancel":{"key":{"org":"A","project":"p","label":"lead"}}}'
 *   deno task client send '{"kind":"ping"}'             # the text as typed, even if not JSON
 *   echo 'subscribe home' | deno task client        # a script: one action per line
 *
 * A `command` runs to its answer (tools/client_lib.ts `commandWire`): one whose outcome rides a
 * reply is sent with its own `reply_to` and its `reply` printed, and a refusal is said on stderr
 * as well as printed. A `command` sent before anything was subscribed subscribes `home` first:
 * most commands are fire-and-forget and their effect arrives as updates (spec: "a client
 * subscribes before it acts"), so without it `close_session` or `spawn_project` would print
 * nothing.
 *
 * Flags: --port N (ws://127.0.0.1:N/socket), --url ws://127.0.0.1:8790/socket, --deflate,
 * --origin O, --quiet-ms N (exit after this long with no frame once the actions are sent;
 * default 1500), --follow (never exit), --validate (check every frame against protocol/'s
 * schemas - envelope, snapshot, update fields, repaired frames, reply bodies - print each
 * mismatch to stderr as `schema: ...`, and exit 3 when there was one).
 */
const args = [...Deno.args];
const take = (name: string): string | null => {
  const i = args.indexOf(name);
  if (i < 0) return null;
  const v = args[i + 1] ?? null;
  args.splice(i, 2);
  return v;
};
const has = (name: string): boolean => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const port = take("--port");
const urlFlag = take("--url");
const origin = take("--origin") ?? undefined;
const quietMs = Number(take("--quiet-ms") ?? 1500);
const deflate = has("--deflate");
const follow = has("--follow");
const validate = has("--validate");
/** The frames the client holds: it prints each as it arrives, so a `--follow` stays bounded. */
const KEEP = 256;

/** What one action sends: a message, a command run to its answer, or raw text as typed. */
/**
 * The socket to dial: `--url` as given, else loopback on `--port` (8790 unless given). A port
 * that is not one, or a URL that is not a ws:// or wss:// address, is refused in the client's
 * words rather than the URL parser's.
 */
export function socketUrl(port: string | null, url: string | null): string {
  if (url !== null) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed?.protocol !== "ws:" && parsed?.protocol !== "wss:") {
      throw new Error(
        `--url takes a ws:// or wss:// address (ws://127.0.0.1:8790/socket), not \`${url}\``,
      );
    }
    return url;
  }
  return `ws://127.0.0.1:${port === null ? 8790 : portNumber(port, "--port")}/socket`;
}

export type Outbound = { message: ClientMessage } | { command: Wire } | { raw: string };

/** Turns one action line into what it sends; `send` keeps its text as typed. */
export function actionToOutbound(line: string): Outbound {
  const trimmed = line.trim();
  const verb = trimmed.split(/\s+/, 1)[0];
  const rest = trimmed.slice(verb.length).trim();
  if (verb === "send") return { raw: rest };
  if (verb === "command") return { command: commandOf(rest) };
  return { message: actionToMessage(trimmed.split(/\s+/)) };
}

/** Turns one action (words) into the message it sends; `command` and `send` are not messages. */
export function actionToMessage(words: string[]): ClientMessage {
  const [verb, ...rest] = words;
  switch (verb) {
    case "subscribe":
      return {
        kind: verb,
        what: subject(rest[0]),
        ...(rest.includes("answering") ? { answering: true } : {}),
      };
    case "unsubscribe":
      return { kind: verb, what: subject(rest[0]) };
    case "more":
      return {
        kind: "more",
        conversation: slot(rest[0]),
        before: rest[2] ?? null,
        turns: Number(rest[1] ?? 20),
      };
    case "ping":
      return { kind: "ping" };
    default:
      throw new Error(
        `unknown action \`${verb}\` (subscribe, unsubscribe, more, command, send, ping)`,
      );
  }
}

/** A command action's text: the Command as JSON, `{"<name>": {fields}}` or `"<unit name>"`. */
function commandOf(text: string): Wire {
  try {
    return JSON.parse(text);
  } catch {
    // The parser's words stay out: what the action takes is the answer.
    throw new Error(
      `command takes a Command as JSON ({"cancel": {"key": ...}} or "vault_lock"), not \`${
        text.slice(0, 80)
      }\``,
    );
  }
}

/** Puts `subscribe home` ahead of the first command when nothing was subscribed before it. */
export function withHomeBeforeCommands(outbound: Outbound[]): Outbound[] {
  const kindOf = (o: Outbound) =>
    "message" in o ? o.message.kind : "command" in o ? "command" : null;
  const first = outbound.findIndex((o) => kindOf(o) === "command");
  if (first < 0 || outbound.slice(0, first).some((o) => kindOf(o) === "subscribe")) {
    return outbound;
  }
  const home: Outbound = { message: { kind: "subscribe", what: "home" } };
  return [...outbound.slice(0, first), home, ...outbound.slice(first)];
}

function subject(word: string | undefined): Subject {
  if (!word) {
    throw new Error(
      "subscribe needs a subject: home, board, usage, dictate_models, extensions or org/project/label",
    );
  }
  if (["home", "board", "usage", "dictate_models", "extensions"].includes(word)) {
    return word as Subject;
  }
  return { session: slot(word) };
}

function slot(word: string | undefined) {
  const s = word ? parseSlotName(word) : null;
  if (!s) throw new Error(`\`${word}\` is not org/project/label`);
  return s;
}

if (import.meta.main) {
  let lines: string[];
  if (args.length > 0) lines = [args.join(" ")];
  else {
    const text = await new Response(Deno.stdin.readable).text();
    lines = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  }
  let outbound: Outbound[];
  let url: string;
  try {
    url = socketUrl(port, urlFlag);
    outbound = withHomeBeforeCommands(lines.map(actionToOutbound));
  } catch (err) {
    console.error(`forge client: ${(err as Error).message}`);
    Deno.exit(2);
  }
  let client: ForgeClient;
  try {
    client = await ForgeClient.connect(url, { origin, deflate, validate, keep: KEEP });
  } catch (err) {
    const unreached = err instanceof ConnectFailed && err.status === null;
    const hint = unreached ? " (is forge running? --port/--url)" : "";
    console.error(`forge client: ${(err as Error).message}${hint}`);
    Deno.exit(1);
  }
  let told = 0;
  const tell = () => {
    for (; told < client.schemaErrors.length; told++) {
      console.error(`schema: ${client.schemaErrors[told]}`);
    }
  };
  let last = performance.now();
  const print = (f: Frame) => {
    tell();
    console.log(
      JSON.stringify(f.type === "json" ? f.data : { binary: f.kind, bytes: f.bytes.length }),
    );
    last = performance.now();
  };
  // What arrived before the listener (the greeting, the settings frame), then every frame live.
  for (const f of client.frames) print(f);
  client.onFrame(print);
  const exit = () => {
    tell();
    Deno.exit(client.schemaErrors.length > 0 ? 3 : 0);
  };
  client.closed().then(exit);
  // A command runs to its answer: a reply command gets its reply_to and its reply is printed
  // with the other frames; a refusal is said on stderr too (its error frame is printed).
  const answers = outbound.map((o) => {
    if ("raw" in o) client.sendText(o.raw);
    else if ("message" in o) client.send(o.message);
    else {
      return client.commandWire(o.command).then(
        () => {},
        (err: Error) => console.error(`forge client: ${err.message}`),
      );
    }
  });
  await Promise.all(answers);
  if (!follow) {
    const quiet = setInterval(() => {
      if (performance.now() - last <= quietMs) return;
      clearInterval(quiet);
      client.close();
    }, 20);
  }
}
