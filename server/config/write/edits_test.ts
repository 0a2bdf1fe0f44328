// spec: Editing the config - the writer keeps comments, order and every untouched byte.
import { deepStrictEqual as deepEqual, match, strictEqual as equal } from "node:assert/strict";
import { applyEdits, type Edit } from "./edits.ts";
import { fixture, lineDiff, type Plain, plain } from "../../../tests/config_write_support.ts";

type Obj = { [key: string]: Plain };
const full = fixture("full.toml");
const compact = fixture("compact.toml");

function set(key_path: string, pattern: string, value: unknown): Edit {
  return { area: key_path.split(".")[0], key_path, pattern, op: "set", value };
}
function add(area: string, key_path: string, value: unknown = {}): Edit {
  return { area, key_path, pattern: "", op: "add", value };
}
function drop(area: string, key_path: string, pattern = ""): Edit {
  return { area, key_path, pattern, op: "remove" };
}

/** Applies edits; asserts the exact lines removed and added, and the exact data change. */
function expectEdit(
  src: string,
  edits: Edit[],
  lines: { removed: string[]; added: string[] },
  change: (data: Obj) => void,
): string {
  const r = applyEdits(src, edits);
  if (!r.ok) throw new Error(r.message);
  deepEqual(lineDiff(src, r.text), lines);
  const want = plain(src);
  change(want);
  deepEqual(plain(r.text), want);
  return r.text;
}

const obj = (v: Plain): Obj => v as Obj;
const list = (v: Plain): Plain[] => v as Plain[];

Deno.test("set: a scalar in place keeps the key's spacing and trailing comment", () => {
  expectEdit(full, [set("server.port", "server.port", 8791)], {
    removed: ["port = 8790              # 0 is refused"],
    added: ["port = 8791              # 0 is refused"],
  }, (d) => obj(d.server).port = 8791);
});

Deno.test("set: a multi-line string value is replaced, its trailing comment kept", () => {
  expectEdit(full, [set("accounts.Subspace.token", "accounts[].token", 'new "tok"')], {
    removed: [
      'token = """\\',
      "    sk-ant-oat01-\\",
      '    aaaaaaaaaaaaaaaa"""   # rotated 2024-11, split to fit the screen',
    ],
    added: ['token = "new \\"tok\\""   # rotated 2024-11, split to fit the screen'],
  }, (d) => obj(list(d.accounts)[0]).token = 'new "tok"');
});

Deno.test("set: an instance name with dots and spaces is located by its entry", () => {
  expectEdit(full, [set("accounts.Zed.ai night.token", "accounts[].token", "zai-new")], {
    removed: ['token = "zai-cccccccccccccccc"'],
    added: ['token = "zai-new"'],
  }, (d) => obj(list(d.accounts)[2]).token = "zai-new");
});

Deno.test("set null clears the key: its line goes, the comment above it stays", () => {
  expectEdit(full, [set("server.bind", "server.bind", null)], {
    removed: ['bind = "127.0.0.1"'],
    added: [],
  }, (d) => delete obj(d.server).bind);
});

Deno.test("set: a list grows and shrinks item by item, keeping the comment inside it", () => {
  const grown = expectEdit(
    full,
    [set("server.allowed_origins", "server.allowed_origins", [
      "http://127.0.0.1:8790",
      "https://forge.example",
    ])],
    {
      removed: ['  "http://localhost:5173", # the dev client'],
      added: ['  "https://forge.example",'],
    },
    (d) => obj(d.server).allowed_origins = ["http://127.0.0.1:8790", "https://forge.example"],
  );
  match(grown, /# "http:\/\/old.example:8080",/);
});

Deno.test("set: a [table] value is written key by key; kept keys keep their comments", () => {
  expectEdit(
    full,
    [set("orgs.Acme.projects.backoffice.env", "orgs[].projects[].env", {
      DATABASE_URL: "postgres://db/bo",
      FEATURE_X: "on",
      NEW: "1",
    })],
    {
      removed: [
        '  DATABASE_URL = "postgres://localhost/backoffice"   # dev database',
        '  TEAM_BRIEFING = """',
        "Back office runs on the old stack.",
        "# this line is inside a string, not a comment",
        "[not.a.table]",
        'Ask Dana before touching billing."""',
      ],
      added: ['  DATABASE_URL = "postgres://db/bo"   # dev database', '  NEW = "1"'],
    },
    (d) =>
      obj(list(obj(list(d.orgs)[0]).projects)[1]).env = {
        DATABASE_URL: "postgres://db/bo",
        FEATURE_X: "on",
        NEW: "1",
      },
  );
});

Deno.test("set: map keys go into inline tables, dotted keys and [tables] as written", () => {
  const proj = (d: Obj, o: number, p: number) => obj(list(obj(list(d.orgs)[o]).projects)[p]);
  expectEdit(full, [
    set("orgs.Acme.projects.shop.env.A.B", "orgs[].projects[].env.*", "x"),
    drop("projects", "orgs.Acme.projects.shop.env.NODE_ENV", "orgs[].projects[].env.*"),
    set("orgs.Personal.projects.dotfiles.env.EDITOR", "orgs[].projects[].env.*", "vi"),
    set("env.DOTTED.NAME", "env.*", "moved"),
  ], {
    removed: [
      '"DOTTED.NAME" = "kept"   # a quoted key with a dot in it',
      '  env = { NODE_ENV = "development", PORT = "3000" }',
    ],
    added: [
      '"DOTTED.NAME" = "moved"   # a quoted key with a dot in it',
      '  env = { PORT = "3000", "A.B" = "x" }',
      '  env.EDITOR = "vi"',
    ],
  }, (d) => {
    obj(proj(d, 0, 0).env)["A.B"] = "x";
    delete obj(proj(d, 0, 0).env).NODE_ENV;
    obj(proj(d, 1, 0).env).EDITOR = "vi";
    obj(d.env)["DOTTED.NAME"] = "moved";
  });
});

Deno.test("set: a new key joins its table; a new table goes at the end of the file", () => {
  const out = expectEdit(full, [
    set("gateway.no_reset_cooldown_secs", "gateway.no_reset_cooldown_secs", 30),
    set("dictate.enabled", "dictate.enabled", true),
  ], {
    removed: [],
    // (the diff pairs blank lines as it likes; the match below pins where they sit)
    added: ["no_reset_cooldown_secs = 30", "[dictate]", "enabled = true", ""],
  }, (d) => {
    obj(d.gateway).no_reset_cooldown_secs = 30;
    d.dictate = { enabled: true };
  });
  match(out, /streak_window_secs = 60\nno_reset_cooldown_secs = 30\n/);
  match(out, /# end of file\n\n\[dictate\]\nenabled = true\n$/);
});

Deno.test("set: an equal value leaves the text byte-identical", () => {
  const r = applyEdits(full, [
    set("server.port", "server.port", 8790),
    set("accounts.Router.models", "accounts[].models", ["claude-sonnet-4", "claude-3.5-haiku"]),
  ]);
  deepEqual(r, { ok: true, text: full });
});

Deno.test("remove: a middle [[accounts]] goes with its lead comment; neighbours untouched", () => {
  const r = applyEdits(full, [drop("accounts", "accounts.Router")]);
  if (!r.ok) throw new Error(r.message);
  const { removed, added } = lineDiff(full, r.text);
  deepEqual(added, []);
  equal(removed[0], "# Backup through OpenRouter; base_url must end in /api.");
  equal(removed.at(-2), '# base_url = "https://old.example/api"   (kept for reference)');
  equal(removed.at(-1), "");
  match(r.text, /model_slugs = .*\n\n# z\.ai, used for the night batch only\.\n\[\[accounts\]\]/);
  const want = plain(full);
  list(want.accounts).splice(1, 1);
  deepEqual(plain(r.text), want);
});

Deno.test("remove: a nested [[orgs.projects]] goes with its [orgs.projects.env] sub-table", () => {
  const r = applyEdits(full, [drop("projects", "orgs.Acme.projects.backoffice")]);
  if (!r.ok) throw new Error(r.message);
  const { removed } = lineDiff(full, r.text);
  equal(removed.length, 17); // lead comment, header and 5 rows, blank, sub-table of 8, blank
  match(r.text, /env = \{ NODE_ENV.*\}\n\n\[\[orgs\]\]\nname = "Personal"/);
  const want = plain(full);
  list(obj(list(want.orgs)[0]).projects).splice(1, 1);
  deepEqual(plain(r.text), want);
});

Deno.test("remove: an org takes its projects; the banner comment above it stays", () => {
  const r = applyEdits(full, [{ area: "orgs", key_path: "orgs.Acme", pattern: "", op: "remove" }]);
  if (!r.ok) throw new Error(r.message);
  match(r.text, /# -+ orgs\n\n\[\[orgs\]\]\nname = "Personal"/);
  deepEqual(plain(r.text).orgs, [obj(plain(full)).orgs].flat().slice(1));
});

Deno.test("add: an account lands after the last one, in its style", () => {
  const out = expectEdit(
    full,
    [add("accounts", "accounts.New One", { provider: "anthropic", token: "t", models: ["m"] })],
    {
      removed: [],
      added: [
        "[[accounts]]",
        'display_name = "New One"',
        'provider = "anthropic"',
        'token = "t"',
        'models = ["m"]',
        "",
      ],
    },
    (d) =>
      list(d.accounts).push({
        display_name: "New One",
        provider: "anthropic",
        token: "t",
        models: ["m"],
      }),
  );
  // placed after the last account and before the banner, one blank line on either side
  match(out, /models = \["glm-4\.6"\]\n\n\[\[accounts\]\]\n[^]*models = \["m"\]\n\n# -+ orgs\n/);
});

Deno.test("add: a project lands inside its own org, indented like its siblings", () => {
  const out = expectEdit(
    full,
    [add("projects", "orgs.Acme.projects.new", { path: "~/n", env: { A: "1" } })],
    {
      removed: [],
      added: ["  [[orgs.projects]]", '  name = "new"', '  path = "~/n"', '  env = { A = "1" }', ""],
    },
    (d) => list(obj(list(d.orgs)[0]).projects).push({ name: "new", path: "~/n", env: { A: "1" } }),
  );
  match(out, /FEATURE_X = "on"\n\n {2}\[\[orgs\.projects\]\]\n {2}name = "new"/);
});

Deno.test("add and remove: models carry their slug and aliases with them", () => {
  const added = expectEdit(full, [
    add("models", "accounts.Router.models.m.2", { slug: "v/m2", aliases: ["m2"] }),
  ], {
    removed: ['model_aliases = { "claude-3.5-haiku" = ["haiku", "small"] }'],
    added: [
      '  "m.2",',
      'model_aliases = { "claude-3.5-haiku" = ["haiku", "small"], "m.2" = ["m2"] }',
      'model_slugs = { "m.2" = "v/m2" }',
    ],
  }, (d) => {
    const a = obj(list(d.accounts)[1]);
    list(a.models).push("m.2");
    obj(a.model_aliases)["m.2"] = ["m2"];
    a.model_slugs = { "m.2": "v/m2" };
  });
  const back = applyEdits(added, [drop("models", "accounts.Router.models.m.2")]);
  deepEqual(back, { ok: true, text: full });
});

Deno.test("add and remove: connectors are [[slack]] entries and the [gotify] table", () => {
  const r = applyEdits(full, [
    drop("connectors", "slack.acme"),
    drop("connectors", "gotify"),
    add("connectors", "slack.new.ws", { token: "xoxp-9" }),
  ]);
  if (!r.ok) throw new Error(r.message);
  const want = plain(full);
  list(want.slack).splice(0, 1);
  list(want.slack).push({ workspace: "new.ws", token: "xoxp-9" });
  delete want.gotify;
  deepEqual(plain(r.text), want);
  match(r.text, /# Plugins update once at boot when this is on\.\n\[plugins\]/);
  const back = applyEdits(r.text, [add("connectors", "gotify", { url: "u", client_token: "c" })]);
  if (!back.ok) throw new Error(back.message);
  deepEqual(plain(back.text).gotify, { url: "u", client_token: "c" });
});

Deno.test("remove: a comment right above the next entry is that entry's, not the removed one's", () => {
  const lead = "# friends: the weekend workspace, polled at the default rate\n";
  const acme = applyEdits(full, [drop("connectors", "slack.acme")]);
  if (!acme.ok) throw new Error(acme.message);
  match(acme.text, /# -+ connectors\n\n# friends: .*\n\[\[slack\]\]\nworkspace = "friends"/);
  const friends = applyEdits(full, [drop("connectors", "slack.friends")]);
  if (!friends.ok) throw new Error(friends.message);
  equal(friends.text.includes(lead), false);
  match(friends.text, /poll_seconds = 10\n\n\[gotify\]/);
});

Deno.test("remove: the last dotted key of a table leaves the table, as `env = {}`", () => {
  const r = applyEdits(full, [
    drop("projects", "orgs.Personal.projects.dotfiles.env.SHELL_RC", "orgs[].projects[].env.*"),
  ]);
  if (!r.ok) throw new Error(r.message);
  deepEqual(lineDiff(full, r.text), {
    removed: [
      "  env.SHELL_RC = '''",
      "source ~/.bashrc  # literal: no escapes \\here",
      "[[orgs]]'''",
    ],
    added: ["  env = {}"],
  });
});

Deno.test("compact layout: dotted keys, inline tables and no blank lines stay that way", () => {
  expectEdit(compact, [
    set("server.enabled", "server.enabled", false),
    set("env.NEW", "env.*", "v"),
    add("models", "accounts.solo.models.x", { aliases: ["xx"] }),
    add("accounts", "accounts.third", { provider: "zai", token: "z", models: ["glm"] }),
    drop("projects", "orgs.me.projects.a"),
  ], {
    removed: [
      'env = { LANG = "C.UTF-8", "my.var" = "1" }\t# inline root env',
      'models=["claude-opus-4","claude-sonnet-4"]',
      "[[orgs.projects]]",
      'name="a"',
      'path="~/a"',
      'env.DEBUG="1"',
      'env."x.y"="dotted and quoted"',
    ],
    added: [
      'env = { LANG = "C.UTF-8", "my.var" = "1", NEW = "v" }\t# inline root env',
      "server.enabled = false",
      'models=["claude-opus-4","claude-sonnet-4", "x"]',
      '\tx = ["xx"],',
      "[[accounts]]",
      'display_name = "third"',
      'provider = "zai"',
      'token = "z"',
      'models = ["glm"]',
    ],
  }, (d) => {
    obj(d.server).enabled = false;
    obj(d.env).NEW = "v";
    const solo = obj(list(d.accounts)[0]);
    list(solo.models).push("x");
    obj(solo.model_aliases).x = ["xx"];
    list(d.accounts).push({ display_name: "third", provider: "zai", token: "z", models: ["glm"] });
    list(obj(list(d.orgs)[0]).projects).splice(0, 1);
  });
});

Deno.test("CRLF files stay CRLF: edits and new entries use the file's line ending", () => {
  const crlf = full.replaceAll("\n", "\r\n");
  const r = applyEdits(crlf, [
    set("server.port", "server.port", 1),
    add("projects", "orgs.Personal.projects.p2", { path: "~/p2" }),
    drop("accounts", "accounts.Router"),
  ]);
  if (!r.ok) throw new Error(r.message);
  equal(/[^\r]\n/.test(r.text), false);
  match(r.text, /\r\n {2}\[\[orgs\.projects\]\]\r\n {2}name = "p2"\r\n/);
});

Deno.test("entries written as an inline array are refused by name, not mangled", () => {
  const text = 'accounts = [{ display_name = "a", token = "x" }]\n';
  const cases: Edit[] = [
    set("accounts.a.token", "accounts[].token", "y"),
    set("accounts.a.base_url", "accounts[].base_url", "u"),
    drop("accounts", "accounts.a"),
    add("accounts", "accounts.b"),
  ];
  for (const edit of cases) {
    const r = applyEdits(text, [edit]);
    equal(r.ok, false, edit.key_path);
    if (!r.ok) match(r.message, /cannot edit|written inline|inline array/);
  }
});

Deno.test("errors name the key_path and the reason, and apply nothing", () => {
  const cases: [Edit, RegExp][] = [
    [set("accounts.Nobody.token", "accounts[].token", "x"), /accounts\.Nobody\.token: .*no entry/],
    [set("server.port", "accounts[].token", "x"), /server\.port: .*does not fit pattern/],
    [add("accounts", "accounts.Router"), /already exists/],
    [add("projects", "orgs.Nope.projects.x"), /names no org/],
    [drop("projects", "orgs.Acme.projects.nope"), /no entry named "nope"/],
    [drop("models", "accounts.Router.models.nope"), /lists no model "nope"/],
    [add("connectors", "gotify"), /already in the file/],
    [add("server", "server.port"), /area server has no entry/],
    [set("server.allowed_origins", "server.allowed_origins", ["a", null]), /null has no TOML form/],
    [add("accounts", "accounts.X", { display_name: "Y" }), /differs from the name/],
    [
      add("accounts", "accounts.X", { display_name: { a: 1 } }),
      /accounts\.X: its display_name must be text, the name in the key_path \("X"\)$/,
    ],
  ];
  for (const [edit, want] of cases) {
    const r = applyEdits(full, [set("server.port", "server.port", 1), edit]);
    if (r.ok) throw new Error(`expected ${edit.key_path} to fail`);
    equal(r.key_path, edit.key_path);
    match(r.message, want);
  }
});
