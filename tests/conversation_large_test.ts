// Socket tier: a seat whose last session the session book remembers (as after a restart, with
// no process running it) pages a large transcript of real CLI lines from its snapshot to its
// first row. spec: more, page; session > conversation (the newest twenty turns, the cursor);
// "A page that cannot be answered is REFUSED" (every row exactly once, in order).
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import { GENERATED_SESSION, writeGenerated } from "../fixtures/history/generate.ts";
import { referenceRows } from "./conversation_support.ts";
import { toolResultIds, toolUseIds } from "../server/workspace/conversation/turns.ts";
import { ForgeClient } from "../tools/client_lib.ts";

type Msg = Record<string, unknown>;
type Page = { turns: { key: string | null; messages: Msg[] }[]; cursor: string | null };

const SIZE = 64 << 20;

Deno.test("a remembered seat pages a 64 MB transcript from its snapshot to its first row, every row once, in order", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-large-" }));
  const big = { org: "Acme", project: "big", label: "lead" };
  const empty = { org: "Acme", project: "empty", label: "lead" };
  try {
    for (const d of ["big", "empty", "state/seats"]) {
      await Deno.mkdir(`${dir}/${d}`, { recursive: true });
    }
    const transcript = `${dir}/${GENERATED_SESSION}.jsonl`;
    await writeGenerated(transcript, SIZE);
    await Deno.writeTextFile(
      `${dir}/state/seats/sessions.json`,
      JSON.stringify({
        "Acme/big/lead": {
          slot: big,
          session_id: GENERATED_SESSION,
          cwd: `${dir}/big`,
          transcript,
        },
      }),
    );
    await Deno.writeTextFile(
      `${dir}/forge.toml`,
      `[server]\nbind = "127.0.0.1"\n\n[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n` +
        `models = ["claude-sonnet-4-5"]\n\n[[orgs]]\nname = "Acme"\naccounts = ["Fake"]\n\n` +
        `[[orgs.projects]]\nname = "big"\npath = "${dir}/big"\n\n` +
        `[[orgs.projects]]\nname = "empty"\npath = "${dir}/empty"\n`,
    );
    const server = await startServer({
      configPath: `${dir}/forge.toml`,
      port: 0,
      gatewayPort: 0,
      log: memoryLogger(),
    });
    const c = await ForgeClient.connect(server.url, { validate: true });
    try {
      await c.next((m) => m.kind === "settings");
      c.send({ kind: "subscribe", what: { session: big } });
      const snap = (await c.next((m) => m.kind === "snapshot")).data as {
        header: { session_id: string | null };
        conversation: Page;
      };
      assertEquals(snap.header.session_id, null, "no process runs the seat");
      assertEquals(snap.conversation.turns.length, 20, "the newest twenty turns, seeded");
      const pages: Page[] = [snap.conversation];
      const t0 = performance.now();
      for (let cursor = snap.conversation.cursor; cursor !== null;) {
        c.send({ kind: "more", conversation: big, before: cursor, turns: 20 });
        const page = (await c.next((m) => m.kind === "page" || m.kind === "error")) as Msg;
        assertEquals(page.kind, "page", JSON.stringify(page).slice(0, 300));
        const p = page as unknown as Page;
        assert(p.turns.length > 0 && p.turns.length <= 20);
        // A page never opens on a tool result without its call.
        const calls = new Set(
          p.turns.flatMap((t) => t.messages.flatMap((m) => toolUseIds(m as never))),
        );
        for (const m of p.turns.flatMap((t) => t.messages)) {
          for (const id of toolResultIds(m as never)) {
            assert(calls.has(id), "a result without its call");
          }
        }
        pages.push(p);
        cursor = p.cursor;
      }
      const walkMs = performance.now() - t0;
      const rows = (await referenceRows(transcript)).map((r) => r.frame.uuid)
        .filter((u): u is string => typeof u === "string");
      const got = pages.reverse().flatMap((p) => p.turns.flatMap((t) => t.messages))
        .map((m) => m.uuid).filter((u): u is string => typeof u === "string");
      assertEquals(got.length, rows.length);
      assertEquals(got, rows);
      assert(pages.every((p) => p.turns.every((t) => t.key === null)), "transcript turns: no key");
      console.log(`${pages.length} pages, ${rows.length} rows, walked in ${walkMs.toFixed(0)} ms`);

      // A declared seat that never held a session has nothing to page: refused, naming it.
      c.send({ kind: "more", conversation: empty, before: null, turns: 20 });
      const refused = await c.next((m) => m.kind === "error");
      assertEquals([refused.what, refused.seat], ["more", empty]);
      assertMatch(String(refused.why), /has no session/);
      c.send({ kind: "more", conversation: big, before: "t:12@not a session", turns: 20 });
      const bad = await c.next((m) => m.kind === "error");
      assertEquals(bad.what, "more");
    } finally {
      await c.close();
      await server.stop();
      assertEquals(c.schemaErrors, []);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
