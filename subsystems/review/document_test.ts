// spec: client verb document_read and server message document_read - confinement to the tree
// and document_roots, refusals by name before any byte is read, kinds, hash, thread resolution.
import { deepStrictEqual, ok, strictEqual as equal } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { type DocumentAsk, type DocumentRead, readDocument } from "./document.ts";
import { contentHash } from "./hash.ts";
import { type ReviewThread, ThreadStore } from "./threads.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { cleanup, tempDir, write } from "../../tests/review_support.ts";

const NOTES = "# Title\nintro\nkeep me\nmiddle\nmoved line\nend\n";

async function anchored(
  id: string,
  path: string,
  line: number,
  first: string,
): Promise<ReviewThread> {
  return {
    id,
    anchor: {
      path,
      side: "new",
      line,
      content_hash: await contentHash(first),
      context: [first],
      base_ref: "main",
    },
    comments: [{ author: "user", text: "?", at: "2026-01-01T00:00:00Z", review_id: null }],
    status: "open",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    commit: null,
  };
}

interface World {
  dir: string;
  tree: string;
  store: ThreadStore;
  ask: (path: string, reviewable?: boolean) => Promise<DocumentRead<string>>;
}

async function world(): Promise<World> {
  const dir = await tempDir();
  const tree = `${dir}/tree`;
  await write(`${tree}/notes.md`, NOTES);
  await write(`${tree}/plain.txt`, "just text\n");
  await write(`${tree}/doc.pdf`, "%PDF-1.4\n%\xff\n");
  await write(`${tree}/data.csv`, "a,b\n");
  await write(`${tree}/Makefile`, "all:\n");
  await write(`${tree}/bad.md`, new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x0a]));
  await write(`${tree}/sub/inner.md`, "inner\n");
  await write(`${dir}/roots/docs/spec.md`, "spec\n");
  await Deno.mkdir(`${dir}/outside`);
  // The outside targets are FIFOs: opening one to read would block, so a refusal that returns
  // at all proves no byte was read.
  for (const f of ["secret", "passwd.md"]) {
    const mk = await new Deno.Command("mkfifo", { args: [`${dir}/outside/${f}`] }).output();
    if (!mk.success) throw new Error("mkfifo failed");
  }
  await Deno.symlink(`${dir}/outside/passwd.md`, `${tree}/link_out.md`);
  await Deno.symlink("../outside", `${tree}/dirlink`);
  await Deno.symlink("notes.md", `${tree}/link_in.md`);
  // Sparse and far over the ceiling: reading it would take minutes, the refusal takes none.
  using huge = await Deno.open(`${tree}/huge.md`, { write: true, create: true });
  await huge.truncate(50 * 1024 * 1024 * 1024);
  const store = new ThreadStore(new StateKeeper(memoryLogger()), `${dir}/state`);
  const ask = (path: string, reviewable = false) => {
    const a: DocumentAsk = {
      tree,
      roots: [`${dir}/roots/docs`],
      path,
      reviewable,
      store,
      project: "p",
      branch: "b",
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${path}: read hung`)), 5000);
    });
    return Promise.race([readDocument("seat-1", a), timeout]).finally(() => clearTimeout(timer));
  };
  return { dir, tree, store, ask };
}

function refused(r: DocumentRead<string>): string {
  if (r.ok) throw new Error(`read ${r.message.path}`);
  return r.why;
}

Deno.test("document_read: a markdown document with its threads re-found and its reviews", async () => {
  const w = await world();
  try {
    await w.store.upsert("p", "b", await anchored("still", "notes.md", 3, "keep me"));
    await w.store.upsert("p", "b", await anchored("moved", "notes.md", 2, "moved line"));
    await w.store.upsert(
      "p",
      "b",
      await anchored("gone", `${await Deno.realPath(w.tree)}/notes.md`, 4, "deleted"),
    );
    await w.store.upsert("p", "b", await anchored("other", "plain.txt", 1, "just text"));
    const round = await w.store.submitReview("p", "b", "filed", ["still"]);
    await w.store.submitReview("p", "b", "unrelated", ["other"]);
    const r = await w.ask("notes.md", true);
    if (!r.ok) throw new Error(r.why);
    const m = r.message;
    equal(m.session, "seat-1");
    equal(m.path, await Deno.realPath(`${w.tree}/notes.md`));
    equal(m.document_kind, "markdown");
    equal(Buffer.from(m.bytes, "base64").toString("utf8"), NOTES);
    equal(m.reviewable, true);
    equal(m.content_hash, await contentHash(NOTES));
    deepStrictEqual(m.threads.map((t) => [t.id, t.resolution]), [
      ["still", { line: 3 }],
      ["moved", { line: 5 }],
      ["gone", "outdated"],
    ]);
    deepStrictEqual(m.reviews, [round]);
    // A symlink inside the tree to a document inside it reads as that document.
    const viaLink = await w.ask("link_in.md");
    ok(viaLink.ok && viaLink.message.path === m.path);
  } finally {
    await cleanup(w.dir);
  }
});

Deno.test("document_read: kinds, reviewability, document_roots; non-text carries no landing", async () => {
  const w = await world();
  try {
    await w.store.upsert("p", "b", await anchored("pdf", "doc.pdf", 1, "%PDF-1.4"));
    const kinds: [string, unknown, boolean][] = [
      ["plain.txt", "text", true],
      ["doc.pdf", "pdf", false],
      ["data.csv", { other: "csv" }, false],
      ["Makefile", { other: "" }, false],
      ["sub/inner.md", "markdown", true],
      [`${w.dir}/roots/docs/spec.md`, "markdown", true],
    ];
    for (const [path, kind, reviewable] of kinds) {
      const r = await w.ask(path);
      if (!r.ok) throw new Error(r.why);
      deepStrictEqual([r.message.document_kind, r.message.reviewable], [kind, reviewable], path);
    }
    const pdf = await w.ask("doc.pdf");
    ok(pdf.ok);
    deepStrictEqual(pdf.message.threads.map((t) => [t.id, t.resolution]), [["pdf", null]]);
  } finally {
    await cleanup(w.dir);
  }
});

Deno.test("document_read: every refusal names document_read and the path, before any byte is read", async () => {
  const w = await world();
  try {
    const cases: [string, boolean, string][] = [
      ["../outside/secret", false, "../outside/secret is outside the working tree"],
      [`${w.dir}/outside/secret`, false, `${w.dir}/outside/secret is outside the working tree`],
      ["/etc/passwd", false, "/etc/passwd is outside the working tree"],
      ["sub/../../outside/secret", false, "sub/../../outside/secret is outside the working tree"],
      ["link_out.md", false, "link_out.md is a symlink pointing outside the working tree"],
      ["dirlink/secret", false, "dirlink/secret is a symlink pointing outside the working tree"],
      ["missing.md", false, "missing.md does not exist"],
      ["sub", false, "sub is not a file"],
      ["huge.md", false, "huge.md is 51200.0 MiB, over the 10 MiB ceiling"],
      ["doc.pdf", true, "doc.pdf is a PDF, which cannot be reviewed"],
      ["bad.md", false, "bad.md is not UTF-8 text"],
      ["", false, '"" names no document'],
    ];
    for (const [path, reviewable, why] of cases) {
      equal(refused(await w.ask(path, reviewable)), `document_read: ${why}`);
    }
  } finally {
    await cleanup(w.dir);
  }
});

Deno.test("document_read: an unreadable review store is a refusal, not an uncommented document", async () => {
  const w = await world();
  try {
    await w.store.upsert("p", "b", await anchored("t", "notes.md", 3, "keep me"));
    await Deno.writeTextFile(`${w.store.dirOf("p", "b")}/threads.json`, "garbage");
    const why = refused(await w.ask("notes.md"));
    ok(why.startsWith("document_read: "), why);
    ok(why.includes("threads.json did not parse (it is not whole JSON)"), why);
  } finally {
    await cleanup(w.dir);
  }
});
