import { parseSlotName, type Subject } from "../protocol/mod.ts";
import { ForgeClient } from "./client_lib.ts";

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
 * A `command` sent before anything was subscribed subscribes `home` first: a command is
 * fire-and-forget and its effect arrives as updates (spec: "a client subscribes before it acts"),
 * so without it `close_session` or `spawn_project` would print nothing.
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
const url = take("--url") ?? `ws://127.0.0.1:${port ?? 8790}/socket`;
const origin = take("--origin") ?? undefined;
const quietMs = Number(take("--quiet-ms") ?? 1500);
const deflate = has("--deflate");
const follow = has("--follow");
const validate = has("--validate");

/** What one action sends: a message (JSON-encoded on the way out) or raw text exactly as typed. */
export type Outbound = { message: unknown } | { raw: string };

/** Turns one action line into what it sends; `send` keeps its text as typed. */
export function actionToOutbound(line: string): Outbound {
  const trimmed = line.trim();
  const verb = trimmed.split(/\s+/, 1)[0];
  if (verb === "send") return { raw: trimmed.slice(verb.length).trim() };
  return { message: actionToMessage(trimmed.split(/\s+/)) };
}

/** Turns one action (words) into the message it sends. */
export function actionToMessage(words: string[]): unknown {
  const [verb, ...rest] = words;
  switch (verb) {
    case "subscribe":
    case "unsubscribe":
      return {
        kind: verb,
        what: subject(rest[0]),
        answering: verb === "subscribe" ? rest.includes("answering") : undefined,
      };
    case "more":
      return {
        kind: "more",
        conversation: slot(rest[0]),
        before: rest[2] ?? null,
        turns: Number(rest[1] ?? 20),
      };
    case "command":
      return { kind: "command", command: JSON.parse(rest.join(" ")), reply_to: null };
    case "ping":
      return { kind: "ping" };
    default:
      throw new Error(
        `unknown action \`${verb}\` (subscribe, unsubscribe, more, command, send, ping)`,
      );
  }
}

/** Puts `subscribe home` ahead of the first command when nothing was subscribed before it. */
export function withHomeBeforeCommands(outbound: Outbound[]): Outbound[] {
  const kindOf = (o: Outbound) =>
    "message" in o ? (o.message as { kind?: string }).kind : undefined;
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
  try {
    outbound = withHomeBeforeCommands(lines.map(actionToOutbound));
  } catch (err) {
    console.error(`forge client: ${(err as Error).message}`);
    Deno.exit(2);
  }
  let client: ForgeClient;
  try {
    client = await ForgeClient.connect(url, { origin, deflate, validate });
  } catch (err) {
    console.error(`forge client: ${(err as Error).message} (is forge running? --port/--url)`);
    Deno.exit(1);
  }
  let last = performance.now();
  let printed = 0;
  let told = 0;
  const tell = () => {
    for (; told < client.schemaErrors.length; told++) {
      console.error(`schema: ${client.schemaErrors[told]}`);
    }
  };
  const exit = () => Deno.exit(client.schemaErrors.length > 0 ? 3 : 0);
  const pump = setInterval(() => {
    tell();
    for (; printed < client.frames.length; printed++) {
      const f = client.frames[printed];
      console.log(
        JSON.stringify(f.type === "json" ? f.data : { binary: f.kind, bytes: f.bytes.length }),
      );
      last = performance.now();
    }
    if (!follow && performance.now() - last > quietMs) {
      clearInterval(pump);
      client.close().then(() => {
        tell();
        exit();
      });
    }
  }, 20);
  for (const o of outbound) {
    if ("raw" in o) client.socket.send(o.raw);
    else client.send(o.message);
  }
  client.closed().then(() => {
    for (; printed < client.frames.length; printed++) {
      console.log(JSON.stringify(
        client.frames[printed].type === "json"
          ? (client.frames[printed] as { data: unknown }).data
          : {},
      ));
    }
    tell();
    exit();
  });
}
