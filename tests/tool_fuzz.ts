/**
 * Test support: fuzzing forge's MCP tools the way the CLI calls them - `tools/list`, then
 * `tools/call` control requests into the seat's own MCP server (server/workspace/mcp/) - with
 * inputs mutated from each tool's JSON Schema, and the words that would mean an engine's or a
 * library's message reached a tool result or a frame. The bench (tools/bench/tool_fuzz.ts) and
 * the test (tests/tool_fuzz_test.ts) share it.
 */
import type { SeatToolServer } from "../server/workspace/mcp/seat_server.ts";
import type { JsonObject } from "../server/workspace/claude/mod.ts";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
};

/**
 * Words no forge sentence carries: the engine's error names and phrasings, stack frames, the
 * schema library's defaults, a stringified object. A hit names the pattern and the text.
 */
export const ENGINE_WORDS: RegExp[] = [
  /\(os error \d+\)/,
  /Cannot read propert/,
  /is not a function/,
  /is not defined\b/,
  /Unexpected (token|end of JSON|character)/,
  /JSON at position/,
  /at file:\/\//,
  /\bat async\b/,
  /\b(TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError)\b/,
  /\bZodError\b/,
  /Invalid input/,
  /Too (small|big): expected/,
  /\[object Object\]/,
  /Maximum call stack/,
  /\bE(CONNREFUSED|NOENT|ACCES|PERM|NOSPC)\b/,
  /error sending request/,
  /\bUncaught\b/,
  /Requires (read|write|net|run|env|sys|ffi) access/,
  /\bNotCapable\b/,
  /node:internal/,
];

/**
 * What a tool hands back from the page itself is the page's data, not forge's words: a script
 * the agent ran in the page reports the page's own exception (`the page threw: ...`), as a REPL
 * would. That one clause is set aside before the check; the rest of the text is checked.
 */
const PAGE_DATA = /the page threw: (?:[^"\\]|\\.)*/g;
/** The page's console as browser_console_messages lists it: each line the page's own. */
const CONSOLE_LINES =
  /\[(?:LOG|DEBUG|INFO|ERROR|WARNING|WARN|TRACE|DIR|DIRXML|TABLE|CLEAR|ASSERT|COUNT|TIMEEND|STARTGROUP|STARTGROUPCOLLAPSED|ENDGROUP|PROFILE|PROFILEEND)\] (?:[^"\\]|\\.)*/g;

/** The first engine pattern `text` matches, with a window of the text around it; or null. */
export function engineWords(raw: string): string | null {
  const text = raw.replace(PAGE_DATA, "the page threw: <the page's own words>")
    .replace(CONSOLE_LINES, "[CONSOLE] <the page's own words>");
  for (const re of ENGINE_WORDS) {
    const m = re.exec(text);
    if (m) return `${re}: …${text.slice(Math.max(0, m.index - 80), m.index + 80)}…`;
  }
  return null;
}

/** A seeded PRNG, so a failing input can be made again. */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
type Rng = ReturnType<typeof rng>;

/** Strings chosen to break parsers and paths, none of which is itself an engine word. */
const HOSTILE_STRINGS = [
  "",
  " ",
  "x",
  "../../../../etc/passwd",
  "/etc/shadow",
  "/",
  "~",
  "C:\\Windows",
  "\u0000",
  "\u202e\u200b\ufeff",
  "🦀🦀🦀",
  "a".repeat(10_000),
  "%s%n%x",
  "${{7*7}}",
  "<script>alert(1)</script>",
  "'; DROP TABLE tasks; --",
  "\n\n\n",
  "-1",
  "1e309",
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "http://",
  "file:///etc/passwd",
  "javascript:1",
  "2026-13-45T99:99:99Z",
  "* * * * * *",
  "c-00000000",
  "00000000-0000-0000-0000-000000000000",
  "Acme/nope/lead",
];

const HOSTILE_NUMBERS = [0, -1, 1, 2 ** 31, -(2 ** 53), 1.5, Number.MAX_SAFE_INTEGER, 1e300, -0];

function typesOf(s: Schema): string[] {
  if (s.const !== undefined) return ["const"];
  if (s.enum) return ["enum"];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return alt.flatMap(typesOf);
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["string"];
}

/** A value the schema accepts (as far as a generator can tell): the seed a mutation starts from. */
export function valid(s: Schema, r: Rng, depth = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return r.pick(s.enum);
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return valid(r.pick(alt), r, depth + 1);
  const type = r.pick(typesOf(s));
  switch (type) {
    case "string": {
      const min = s.minLength ?? 1;
      return "fuzz".padEnd(Math.min(Math.max(min, 4), s.maxLength ?? 64), "z");
    }
    case "integer":
    case "number":
      return Math.max(s.minimum ?? 1, Math.min(s.maximum ?? 1, 1));
    case "boolean":
      return r.next() < 0.5;
    case "null":
      return null;
    case "array":
      return depth > 3 || !s.items ? [] : [valid(s.items, r, depth + 1)];
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || r.next() < 0.3) out[k] = valid(p, r, depth + 1);
      }
      return out;
    }
  }
  return null;
}

/** Something of another kind than `s` wants. */
function wrong(s: Schema, r: Rng): unknown {
  const kinds = [
    () => r.pick(HOSTILE_STRINGS),
    () => r.pick(HOSTILE_NUMBERS),
    () => r.next() < 0.5,
    () => null,
    () => [r.pick(HOSTILE_STRINGS), r.pick(HOSTILE_NUMBERS)],
    () => Object.defineProperty({}, r.pick(HOSTILE_STRINGS), { value: 1, enumerable: true }),
    () => deep(40 + r.int(200)),
    () => Array.from({ length: 2_000 }, (_, i) => i),
  ];
  const t = typesOf(s);
  for (let i = 0; i < 8; i++) {
    const v = r.pick(kinds)();
    if (!t.includes(typeof v === "number" ? "number" : Array.isArray(v) ? "array" : typeof v)) {
      return v;
    }
  }
  return r.pick(HOSTILE_STRINGS);
}

function deep(n: number): unknown {
  let v: unknown = "bottom";
  for (let i = 0; i < n; i++) v = { v };
  return v;
}

/** One mutated input: a valid seed with one to three fields broken, dropped or added. */
export function mutate(schema: Schema, r: Rng): unknown {
  const roll = r.next();
  if (roll < 0.04) return r.pick([null, [], "string", 7, deep(300)]); // not an object at all
  const base = valid(schema, r) as Record<string, unknown>;
  if (roll < 0.12) return base; // some inputs must pass, so the handlers run
  const props = Object.keys(schema.properties ?? {});
  const n = 1 + r.int(3);
  for (let i = 0; i < n; i++) {
    const k = props.length ? r.pick(props) : "field";
    const p = schema.properties?.[k] ?? {};
    const what = r.int(6);
    if (what === 0) delete base[k];
    else if (what === 1) {
      // An own field even for `__proto__` (an assignment would set the prototype instead).
      Object.defineProperty(base, r.pick(HOSTILE_STRINGS).slice(0, 40) || "extra", {
        value: r.pick(HOSTILE_STRINGS),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (what === 2 && typesOf(p).includes("string")) base[k] = r.pick(HOSTILE_STRINGS);
    else if (what === 3 && typesOf(p).some((t) => t === "number" || t === "integer")) {
      base[k] = r.pick(HOSTILE_NUMBERS);
    } else base[k] = wrong(p, r);
  }
  return base;
}

export interface FuzzReport {
  tools: number;
  calls: number;
  /** Calls a handler ran (the input passed the schema). */
  ran: number;
  /** Calls that parked an ask and were cancelled, as the CLI cancels. */
  cancelled: number;
  /** Engine words found: tool, input, the hit. */
  hits: { tool: string; input: string; hit: string }[];
  /** Calls that never answered, even after their cancel. */
  hung: string[];
}

/**
 * The JSON-RPC id of the last request any fuzz run sent. Shared, because runs fuzzing one server
 * at once must not reuse each other's ids: a second call under an id still running stands in its
 * place, and a cancel of that id then ends the wrong call, leaving the other parked for ever.
 */
let lastRpcId = 1_000_000;

/**
 * Calls every listed tool `perTool` times with mutated inputs through `server.handle`, exactly as
 * the CLI's control requests arrive. A call still running after `cancelMs` is cancelled the way
 * the CLI cancels one (`notifications/cancelled`); one that then does not answer within
 * `hangMs` is reported as hung. `skip` leaves tools out (by name) when asked.
 */
export async function fuzzTools(
  server: SeatToolServer,
  o: { perTool: number; seed: number; cancelMs: number; hangMs: number; skip?: string[] },
): Promise<FuzzReport> {
  const rpc = (method: string, params: JsonObject, withId = true): JsonObject => ({
    subtype: "mcp_message",
    server_name: "forge",
    message: withId
      ? { jsonrpc: "2.0", id: ++lastRpcId, method, params }
      : { jsonrpc: "2.0", method, params },
  });
  const listed = await server.handle(rpc("tools/list", {}));
  const tools = (((listed.mcp_response as JsonObject).result as JsonObject).tools as JsonObject[])
    .filter((t) => !(o.skip ?? []).includes(String(t.name)));
  const report: FuzzReport = {
    tools: tools.length,
    calls: 0,
    ran: 0,
    cancelled: 0,
    hits: [],
    hung: [],
  };
  const r = rng(o.seed);
  for (const tool of tools) {
    const name = String(tool.name);
    for (let i = 0; i < o.perTool; i++) {
      const input = mutate(tool.inputSchema as Schema, r);
      const req = rpc("tools/call", { name, arguments: input as JsonObject });
      const callId = (req.message as JsonObject).id as number;
      report.calls++;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = server.handle(req);
      const cancelled = new Promise<"cancelled">((resolve) => {
        timer = setTimeout(() => {
          void server.handle(rpc("notifications/cancelled", { requestId: callId }, false));
          resolve("cancelled");
        }, o.cancelMs);
      });
      let res: JsonObject;
      const first = await Promise.race([answered, cancelled]);
      clearTimeout(timer);
      if (first === "cancelled") {
        report.cancelled++;
        const late = await Promise.race([
          answered,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), o.hangMs)),
        ]);
        if (late === null) {
          report.hung.push(`${name} ${JSON.stringify(input).slice(0, 200)}`);
          continue;
        }
        res = late;
      } else res = first;
      const result = (res.mcp_response as JsonObject).result as JsonObject | undefined;
      const text = JSON.stringify(res.mcp_response);
      if (result && !/was called with bad input|offers no tool/.test(text)) report.ran++;
      const hit = engineWords(text);
      if (hit) report.hits.push({ tool: name, input: JSON.stringify(input).slice(0, 300), hit });
    }
  }
  return report;
}
