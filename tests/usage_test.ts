import { assert, assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";

const FIXTURES = new URL("../fixtures/transcripts/", import.meta.url).pathname;

// spec: usage is the token/cost pool, scanned on the ask; nothing updates it.
Deno.test("usage: a subscribe scans the real CLI transcripts under the account's config dir", async () => {
  const claude = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${claude}/projects/-home-user-project`, { recursive: true });
    for (const f of ["plain_text.jsonl", "tool_bash.jsonl", "multi_turn.jsonl"]) {
      await Deno.copyFile(`${FIXTURES}${f}`, `${claude}/projects/-home-user-project/${f}`);
    }
    await using t = await testServer(
      `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\nconfig_dir = "${claude}"\n` +
        `[[orgs]]\nname = "Acme"\naccounts = ["A"]\n[[orgs.projects]]\nname = "proj"\npath = "/home/user/project"\n`,
    );
    const c = await t.ready();
    c.send({ kind: "subscribe", what: "usage" });
    const snap = await c.next();
    assertEquals([snap.kind, snap.subject], ["snapshot", "usage"]);
    type Row = {
      name: string;
      input_tokens: number;
      output_tokens: number;
      cache_creation_tokens: number;
      cache_read_tokens: number;
    };
    const data = snap.data as {
      lifetime: { total: Row; by_project: Row[] };
      pricing_available: boolean;
    };
    const t0 = data.lifetime.total;
    // The fixtures README's scripted usage, summed: six API calls.
    assertEquals([
      t0.input_tokens,
      t0.output_tokens,
      t0.cache_creation_tokens,
      t0.cache_read_tokens,
    ], [
      120 + 300 + 30 + 1000 + 200 + 30,
      9 + 40 + 12 + 100 + 50 + 5,
      250 + 500 + 100,
      550 + 1500 + 1700,
    ]);
    assertEquals(data.lifetime.by_project.map((r) => r.name), ["proj"]);
    assert(data.pricing_available);
    // Nothing updates the subject: a ping after it finds no further frame.
    c.send({ kind: "ping" });
    assertEquals(await c.next(), { kind: "pong" });
  } finally {
    await Deno.remove(claude, { recursive: true });
  }
});
