// spec: Editing the config - refusal reasons, temp file and rename, mode, symlink, races.
import { deepStrictEqual as deepEqual, match, strictEqual as equal } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { Edit } from "./edits.ts";
import { fingerprint } from "../fingerprint.ts";
import { type SaveOptions, saveSettings, sweepSaveTemps } from "./writer.ts";
import { fixture } from "../../../tests/config_write_support.ts";

const full = fixture("full.toml");
const setPort = (port: number): Edit => ({
  area: "server",
  key_path: "server.port",
  pattern: "server.port",
  op: "set",
  value: port,
});

/** A loader stand-in: smol-toml's parse plus one catalogue rule, in the loader's words. */
function validate(text: string): string | null {
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (e) {
    return `forge.toml failed to parse: ${(e as Error).message}`;
  }
  const port = (data.server as Record<string, unknown> | undefined)?.port;
  return port === 0 ? "forge.toml at line 13 in `server.port`: 0 is refused" : null;
}

/** Runs `body` with a fresh temp dir holding forge.toml; removes the dir afterwards. */
async function withConfig(body: (dir: string, path: string) => Promise<void>, text = full) {
  const dir = await Deno.makeTempDir({ prefix: "forge_writer_" });
  try {
    const path = join(dir, "forge.toml");
    await Deno.writeTextFile(path, text);
    await body(dir, path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

function opts(path: string, edits: Edit[], extra: Partial<SaveOptions> = {}): SaveOptions {
  return { path, fingerprint: fingerprint(full), edits, validate, ...extra };
}

Deno.test("save: writes the edited text by rename and answers with it", async () => {
  await withConfig(async (dir, path) => {
    const r = await saveSettings(opts(path, [setPort(8791)]));
    if (!r.ok) throw new Error(r.message);
    equal(await Deno.readTextFile(path), r.text);
    equal(r.text, full.replace("port = 8790 ", "port = 8791 "));
    deepEqual(await names(dir), ["forge.toml"]);
  });
});

Deno.test("stale: the file moved between the page's load and the save", async () => {
  await withConfig(async (dir, path) => {
    const moved = full + "# a hand edit in another editor\n";
    await Deno.writeTextFile(path, moved);
    const r = await saveSettings(opts(path, [setPort(8791)]));
    deepEqual(r.ok ? null : [r.reason, r.key_path], ["stale", null]);
    if (!r.ok) match(r.message, /changed since the page loaded it/);
    equal(await Deno.readTextFile(path), moved);
    deepEqual(await names(dir), ["forge.toml"]);
  });
});

Deno.test("stale: the file moved after the temp file exists, before the rename", async () => {
  await withConfig(async (dir, path) => {
    const moved = full.replace('RUST_LOG = "info"', 'RUST_LOG = "debug"');
    let tempsSeen: string[] = [];
    const r = await saveSettings(opts(path, [setPort(8791)], {
      hooks: {
        beforeRename: async () => {
          tempsSeen = (await names(dir)).filter((n) => n !== "forge.toml");
          await Deno.writeTextFile(path, moved);
        },
      },
    }));
    equal(tempsSeen.length, 1); // the re-check really ran with the temp file in place
    equal(r.ok ? null : r.reason, "stale");
    equal(await Deno.readTextFile(path), moved);
    deepEqual(await names(dir), ["forge.toml"]);
  });
});

Deno.test("invalid: the loader's own message, naming the edited key", async () => {
  await withConfig(async (_dir, path) => {
    const r = await saveSettings(opts(path, [setPort(0)]));
    deepEqual(r, {
      ok: false,
      reason: "invalid",
      message: "forge.toml at line 13 in `server.port`: 0 is refused",
      key_path: "server.port",
    });
    equal(await Deno.readTextFile(path), full);
  });
});

Deno.test("invalid: an edit naming an entry the file lacks", async () => {
  await withConfig(async (_dir, path) => {
    const edit: Edit = {
      area: "accounts",
      key_path: "accounts.Ghost.token",
      pattern: "accounts[].token",
      op: "set",
      value: "x",
    };
    const r = await saveSettings(opts(path, [setPort(8791), edit]));
    equal(r.ok ? null : r.reason, "invalid");
    equal(r.ok ? null : r.key_path, "accounts.Ghost.token");
    equal(await Deno.readTextFile(path), full);
  });
});

Deno.test("refused: a guard declines removing an account an org binds", async () => {
  // An identity-diff guard: accounts present before and absent after, still named by an org.
  const guard = (before: string, after: string): string | null => {
    const names = (t: string) =>
      (parse(t).accounts as { display_name: string }[]).map((a) => a.display_name);
    const bound = (parse(after).orgs as { accounts: string[] }[]).flatMap((o) => o.accounts);
    const gone = names(before).filter((n) => !names(after).includes(n) && bound.includes(n));
    return gone.length ? `account ${gone.join(", ")} is bound by an org` : null;
  };
  await withConfig(async (_dir, path) => {
    const edit: Edit = { area: "accounts", key_path: "accounts.Router", pattern: "", op: "remove" };
    const r = await saveSettings(opts(path, [edit], { guard }));
    deepEqual(r, {
      ok: false,
      reason: "refused",
      message: "account Router is bound by an org",
      key_path: "accounts.Router",
    });
    equal(await Deno.readTextFile(path), full);
  });
});

Deno.test("io: a destination whose parent is a file cannot be read, nothing is written", async () => {
  await withConfig(async (dir) => {
    const r = await saveSettings(opts(join(dir, "forge.toml", "forge.toml"), [setPort(8791)]));
    equal(r.ok ? null : r.reason, "io");
    equal(await Deno.readTextFile(join(dir, "forge.toml")), full);
    deepEqual(await names(dir), ["forge.toml"]);
  });
});

Deno.test("io: a directory that cannot take the temp file's name leaves no trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge_writer_" });
  try {
    // A name at the file system's 255-byte limit has no room for a longer sibling.
    const path = join(dir, "f".repeat(250) + ".toml");
    await Deno.writeTextFile(path, full);
    const r = await saveSettings(opts(path, [setPort(8791)]));
    equal(r.ok ? null : r.reason, "io");
    if (!r.ok) match(r.message, /cannot write/);
    equal(await Deno.readTextFile(path), full);
    equal((await names(dir)).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("io: the destination vanishing in the rename window removes the temp file", async () => {
  await withConfig(async (dir, path) => {
    const r = await saveSettings(opts(path, [setPort(8791)], {
      hooks: {
        beforeRename: async () => {
          await Deno.remove(path);
          await Deno.mkdir(path); // a directory where the file was: the re-read fails
        },
      },
    }));
    equal(r.ok ? null : r.reason, "io");
    deepEqual(await names(dir), ["forge.toml"]);
    equal((await Deno.stat(path)).isDirectory, true);
  });
});

Deno.test("mode: the file keeps its own permission bits", async () => {
  for (const mode of [0o600, 0o640]) {
    await withConfig(async (_dir, path) => {
      await Deno.chmod(path, mode);
      const r = await saveSettings(opts(path, [setPort(8791)]));
      equal(r.ok, true);
      equal((await Deno.stat(path)).mode! & 0o7777, mode);
    });
  }
});

Deno.test("mode: a read-only file is not replaced, whoever saves (root passes any mode)", async () => {
  await withConfig(async (dir, path) => {
    const text = await Deno.readTextFile(path);
    await Deno.chmod(path, 0o444);
    const r = await saveSettings(opts(path, [setPort(8791)]));
    equal(r.ok ? null : r.reason, "io");
    equal(r.ok ? "" : r.message, `${path} is read-only (mode 0444): make it writable to save`);
    equal(await Deno.readTextFile(path), text);
    deepEqual(await names(dir), ["forge.toml"]);
  });
});

Deno.test({
  name: "owner: a save by root leaves a user's file owned by that user",
  ignore: Deno.uid() !== 0,
  fn: async () => {
    await withConfig(async (_dir, path) => {
      await Deno.chown(path, 4321, 4322);
      const r = await saveSettings(opts(path, [setPort(8791)]));
      equal(r.ok, true);
      const info = await Deno.stat(path);
      deepEqual([info.uid, info.gid], [4321, 4322]);
    });
  },
});

Deno.test("symlink: the target is replaced and the link stays a link", async () => {
  await withConfig(async (dir, path) => {
    await Deno.mkdir(join(dir, "conf"));
    const link = join(dir, "conf", "forge.toml");
    await Deno.symlink(path, link);
    const r = await saveSettings(opts(link, [setPort(8791)]));
    if (!r.ok) throw new Error(r.message);
    equal((await Deno.lstat(link)).isSymlink, true);
    equal(await Deno.readLink(link), path);
    equal(await Deno.readTextFile(path), r.text);
    deepEqual(await names(dir), ["conf", "forge.toml"]);
    deepEqual(await names(join(dir, "conf")), ["forge.toml"]);
  });
});

Deno.test("race: two saves on one fingerprint, one through a link - one lands, one is stale", async () => {
  await withConfig(async (dir, path) => {
    const link = join(dir, "link.toml");
    await Deno.symlink(path, link);
    const [a, b] = await Promise.all([
      saveSettings(opts(path, [setPort(1111)])),
      saveSettings(opts(link, [setPort(2222)])),
    ]);
    const landed = [a, b].filter((r) => r.ok);
    equal(landed.length, 1);
    deepEqual([a, b].filter((r) => !r.ok).map((r) => r.ok ? "" : r.reason), ["stale"]);
    equal(await Deno.readTextFile(path), landed[0].ok ? landed[0].text : "");
    deepEqual(await names(dir), ["forge.toml", "link.toml"]);
  });
});

Deno.test("saves to one file run one at a time in this process", async () => {
  await withConfig(async (_dir, path) => {
    const log: string[] = [];
    const save = (name: string, port: number) =>
      saveSettings(opts(path, [setPort(port)], {
        validate: (t) => (log.push(`${name} validate`), validate(t)),
        hooks: {
          beforeRename: async () => {
            log.push(`${name} temp written`);
            await new Promise((r) => setTimeout(r, 30)); // a slow disk: the other save waits
          },
        },
      })).then((r) => (log.push(`${name} ${r.ok ? "landed" : r.reason}`), r));
    await Promise.all([save("a", 1111), save("b", 2222)]);
    // Whichever is queued first runs to the end before the other reads the file; the other
    // then finds the text moved.
    const [first, second] = log[0] === "a validate" ? ["a", "b"] : ["b", "a"];
    deepEqual(log, [
      `${first} validate`,
      `${first} temp written`,
      `${first} landed`,
      `${second} stale`,
    ]);
  });
});

Deno.test("a batch that changes nothing writes nothing", async () => {
  await withConfig(async (_dir, path) => {
    const before = (await Deno.stat(path)).mtime;
    await new Promise((r) => setTimeout(r, 20));
    const r = await saveSettings(opts(path, [setPort(8790)]));
    deepEqual(r, { ok: true, text: full });
    deepEqual((await Deno.stat(path)).mtime, before);
  });
});

Deno.test("a missing file is created, private, from the empty text's fingerprint", async () => {
  await withConfig(async (dir) => {
    const path = join(dir, "new.toml");
    const r = await saveSettings({ ...opts(path, [setPort(8791)]), fingerprint: fingerprint("") });
    deepEqual(r, { ok: true, text: "[server]\nport = 8791\n" });
    equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("a save a crash cut short leaves a temp file the next boot sweeps, and nothing else", async () => {
  await withConfig(async (dir, path) => {
    // The crash: the temp file is whole, the rename never comes (the save's own clean-up, which
    // a SIGKILL would not run, is undone by putting the temp file back).
    const temps: string[] = [];
    await saveSettings(opts(path, [setPort(8791)], {
      hooks: {
        beforeRename: async () => {
          temps.push(...(await names(dir)).filter((n) => n.endsWith(".tmp")));
          for (const n of temps) await Deno.copyFile(join(dir, n), join(dir, `${n}.kept`));
          throw new Error("killed");
        },
      },
    }));
    for (const n of temps) await Deno.rename(join(dir, `${n}.kept`), join(dir, n));
    equal(temps.length, 1);
    // A person's own files that merely look alike stay.
    const theirs = [
      ".forge.toml.notmine.tmp",
      ".other.toml.1a2b3c4d.tmp",
      "forge.toml.1a2b3c4d.tmp",
    ];
    for (const n of theirs) await Deno.writeTextFile(join(dir, n), "mine");
    deepEqual(await sweepSaveTemps(path), [join(dir, temps[0])]);
    deepEqual(await names(dir), [...theirs, "forge.toml"].sort());
    equal(await Deno.readTextFile(path), full);
  });
});

Deno.test("the sweep follows a linked config to its directory, and a missing one holds none", async () => {
  await withConfig(async (dir, path) => {
    await Deno.mkdir(join(dir, "conf"));
    const link = join(dir, "conf", "forge.toml");
    await Deno.symlink(path, link);
    await Deno.writeTextFile(join(dir, ".forge.toml.0badf00d.tmp"), "half a sav");
    deepEqual(await sweepSaveTemps(link), [join(dir, ".forge.toml.0badf00d.tmp")]);
    deepEqual(await names(dir), ["conf", "forge.toml"]);
    deepEqual(await sweepSaveTemps(join(dir, "nowhere", "forge.toml")), []);
  });
});
