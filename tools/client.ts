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
 *   deno task client send '{"kind":"ping"}'
 *   echo 'subscribe home' | deno task client        # a script: one action per line
 *
 * Flags: --url ws://127.0.0.1:8790/socket, --deflate, --origin O, --quiet-ms N (exit after this
 * long with no frame once the actions are sent; default 1500), --follow (never exit).
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
const url = take("--url") ?? "ws://127.0.0.1:8790/socket";
const origin = take("--origin") ?? undefined;
const quietMs = Number(take("--quiet-ms") ?? 1500);
const deflate = has("--deflate");
const follow = has("--follow");

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
    case "send":
      return JSON.parse(rest.join(" "));
    case "ping":
      return { kind: "ping" };
    default:
      throw new Error(
        `unknown action \`${verb}\` (subscribe, unsubscribe, more, command, send, ping)`,
      );
  }
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
  let actions: string[][];
  if (args.length > 0) actions = [args];
  else {
    const text = await new Response(Deno.stdin.readable).text();
    actions = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((
      l,
    ) => l.split(/\s+/));
  }
  const messages = actions.map(actionToMessage);
  const client = await ForgeClient.connect(url, { origin, deflate });
  let last = performance.now();
  let printed = 0;
  const pump = setInterval(() => {
    for (; printed < client.frames.length; printed++) {
      const f = client.frames[printed];
      console.log(
        JSON.stringify(f.type === "json" ? f.data : { binary: f.kind, bytes: f.bytes.length }),
      );
      last = performance.now();
    }
    if (!follow && performance.now() - last > quietMs) {
      clearInterval(pump);
      client.close().then(() => Deno.exit(0));
    }
  }, 20);
  for (const m of messages) client.send(m);
  client.closed().then(() => {
    for (; printed < client.frames.length; printed++) {
      console.log(JSON.stringify(
        client.frames[printed].type === "json"
          ? (client.frames[printed] as { data: unknown }).data
          : {},
      ));
    }
    Deno.exit(0);
  });
}
