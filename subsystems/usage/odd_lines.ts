/**
 * Transcript lines a usage reader must not misread: torn writes, escapes where the fields are,
 * keys given twice, numbers of every JSON form, bytes JSON forbids, deep nesting, and `"usage"`
 * where it is not a message's. For transcript_bytes_test.ts; nothing in the server imports it.
 */

const enc = new TextEncoder();
type Obj = Record<string, unknown>;

function assistant(over: Obj = {}, message: Obj = {}, usage: Obj = {}): Obj {
  return {
    parentUuid: null,
    isSidechain: false,
    type: "assistant",
    cwd: "/w/odd",
    message: {
      id: "msg_odd",
      type: "message",
      role: "assistant",
      model: "claude-opus-5-5",
      content: [{ type: "text", text: "hi" }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 20,
        cache_read_input_tokens: 30,
        output_tokens: 40,
        cache_creation: { ephemeral_1h_input_tokens: 5, ephemeral_5m_input_tokens: 15 },
        speed: "standard",
        ...usage,
      },
      ...message,
    },
    requestId: "req_odd",
    timestamp: "2026-12-02T09:56:26.643Z",
    ...over,
  };
}

const json = (v: unknown) => JSON.stringify(v);

/** [label, line bytes without the newline]. */
export function oddLines(): [string, Uint8Array][] {
  const base = json(assistant());
  const text: [string, string][] = [
    ["plain", base],
    ["torn in usage", base.slice(0, base.indexOf('"output_tokens"') + 5)],
    ["torn before usage", base.slice(0, 40)],
    ["torn then a whole line", base.slice(0, base.indexOf("cache_read")) + base],
    ["two objects", base + base],
    ["trailing garbage", base + " x"],
    ["spaced", JSON.stringify(assistant(), null, "\t").replaceAll("\n", " ")],
    ["cwd elsewhere", json({ type: "user", cwd: "/w/elsewhere", note: "usage", k: ["usage"] })],
    ["user with a usage object", json({ type: "user", cwd: "/w/u", toolUseResult: { usage: {} } })],
    ["array", '["usage"]'],
    ["string", '"usage"'],
    ["number", '1 "usage"'],
    ["blank", "   \t"],
    ["not json", "usage is high"],
    ["no newline tail", "{}"],
    ["escaped model", base.replace('"claude-opus-5-5"', '"\\u0063laude-opus-5-5"')],
    ["escaped cwd", base.replace('"/w/odd"', '"C:\\\\w\\\\odd \\"q\\""')],
    ["escaped ids", base.replace('"msg_odd"', '"msg\\/odd"').replace('"req_odd"', '"r\\u00e9q"')],
    ["escaped type", base.replace('"type":"assistant"', '"type":"assist\\u0061nt"')],
    ["escaped key", base.replace('"type":"assistant"', '"typ\\u0065":"assistant"')],
    ["escaped usage key", base.replace('"input_tokens"', '"input\\u005ftokens"')],
    [
      "escaped speed",
      json(assistant({}, {}, { speed: "fas\u0074" })).replace("fast", "f\\u0061st"),
    ],
    ["fast", json(assistant({}, {}, { speed: "fast" }))],
    ["synthetic", json(assistant({}, { model: "<synthetic>" }))],
    ["no model", json(assistant({}, { model: 7 }))],
    ["no ids", json(assistant({ requestId: null }, { id: undefined }))],
    ["not assistant", json(assistant({ type: "user" }))],
    [
      "type twice",
      base.replace("{", '{"type":"assistant",').replace('"type":"assistant"', '"t":1'),
    ],
    ["type last wins", base.replace(/}$/, ',"type":"summary"}')],
    ["message twice", base.replace(/}$/, ',"message":{"usage":{"input_tokens":99}}}')],
    ["message then not", base.replace(/}$/, ',"message":[1]}')],
    ["usage twice", base.replace('"usage":{', '"usage":{"output_tokens":1},"usage":{')],
    ["usage not object", json(assistant({}, { usage: [1, 2] }))],
    ["split not object", json(assistant({}, {}, { cache_creation: 5 }))],
    ["split twice", base.replace('"cache_creation":{', '"cache_creation":null,"cache_creation":{')],
    ["numbers", json(assistant({}, {}, { input_tokens: 1e3, output_tokens: 1.5 }))],
    ["number forms", base.replace('"input_tokens":10', '"input_tokens":1E+2')],
    ["negative", base.replace('"input_tokens":10', '"input_tokens":-0.0e-0')],
    ["huge", base.replace('"input_tokens":10', '"input_tokens":123456789012345678901234')],
    ["infinite", base.replace('"input_tokens":10', '"input_tokens":1e400')],
    ["leading zero", base.replace('"input_tokens":10', '"input_tokens":010')],
    ["bare dot", base.replace('"input_tokens":10', '"input_tokens":1.')],
    ["string number", base.replace('"input_tokens":10', '"input_tokens":"10"')],
    ["bool", base.replace('"input_tokens":10', '"input_tokens":true')],
    ["bad literal", base.replace('"input_tokens":10', '"input_tokens":nul')],
    ["tab in string", base.replace('"text":"hi"', '"text":"h\ti"')],
    ["bad escape", base.replace('"text":"hi"', '"text":"h\\xi"')],
    ["bad unicode escape", base.replace('"text":"hi"', '"text":"h\\u12G4"')],
    ["surrogate escape", base.replace('"text":"hi"', '"text":"\\ud800\\uDC00\\ud800"')],
    ["missing colon", base.replace('"role":"assistant"', '"role" "assistant"')],
    ["missing comma", base.replace('"role":"assistant",', '"role":"assistant"')],
    ["trailing comma", base.replace('"role":"assistant",', '"role":"assistant",,')],
    ["object trailing comma", base.replace(/}$/, ",}")],
    ["array trailing comma", base.replace('"text":"hi"}]', '"text":"hi"},]')],
    ["unclosed", base.slice(0, -1)],
    ["deep", base.replace('"text":"hi"', `"text":${"[".repeat(300)}${"]".repeat(300)}`)],
    ["deep object", base.replace('"hi"', `${'{"a":'.repeat(250)}1${"}".repeat(250)}`)],
    ["timestamp no ms", json(assistant({ timestamp: "2026-12-02T09:56:26Z" }))],
    ["timestamp day 31", json(assistant({ timestamp: "2026-12-31T23:59:59.999Z" }))],
    ["timestamp feb 30", json(assistant({ timestamp: "2026-02-30T01:02:03.004Z" }))],
    ["timestamp hour 24", json(assistant({ timestamp: "2026-02-03T24:00:00.000Z" }))],
    ["timestamp old", json(assistant({ timestamp: "0099-02-03T04:05:06.007Z" }))],
    ["timestamp offset", json(assistant({ timestamp: "2026-02-03T04:05:06.007+02:00" }))],
    ["timestamp junk", json(assistant({ timestamp: "yesterday" }))],
    ["timestamp number", json(assistant({ timestamp: 1_700_000_000_000 }))],
    ["unicode", json(assistant({ cwd: "/w/日本語" }, { model: "claude-ü" }))],
    ["proto key", base.replace("{", '{"__proto__":{"type":"x"},')],
    ["usage key in content", json(assistant({}, { content: [{ usage: { input_tokens: 9 } }] }))],
  ];
  const bytes: [string, Uint8Array][] = text.map(([label, s]) => [label, enc.encode(s)]);
  // Bytes no text decode makes whole: in a string, and where JSON has no strings.
  const splice = (s: string, at: string, raw: number[]) => {
    const b = enc.encode(s), i = s.indexOf(at); // ASCII up to `at`
    return new Uint8Array([...b.subarray(0, i), ...raw, ...b.subarray(i)]);
  };
  bytes.push(["invalid UTF-8 in a string", splice(base, 'hi"', [0xff, 0xc3])]);
  bytes.push(["invalid UTF-8 in the cwd", splice(base, 'odd"', [0xe2, 0x82])]);
  bytes.push(["invalid UTF-8 between keys", splice(base, '"role"', [0xc3, 0xa9])]);
  bytes.push(["NUL in a string", splice(base, 'hi"', [0x00])]);
  bytes.push(["DEL in a string", splice(base, 'hi"', [0x7f])]);
  return bytes;
}
