// docs/notify.md "Web Push": the VAPID pair is made once and kept; docs/state.md: a state file
// that does not parse is kept aside and reported, never overwritten, and refuses changes until
// it is mended or removed.
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { WebPushStore } from "./webpush_store.ts";

const SUB = { endpoint: "https://push.example/a", keys: { p256dh: "BAAA", auth: "AAAA" } };
/** Each open is a new process: a keeper of its own. */
const open = (dir: string) => WebPushStore.open(new StateKeeper(memoryLogger()), dir);

Deno.test("the VAPID pair is made on first use, kept, and the subscriptions outlive a restart", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await open(`${dir}/notify`);
    await first.add(SUB);
    await first.add({ ...SUB, endpoint: "https://push.example/b" });
    await first.add(SUB); // again: replaced, not doubled
    const again = await open(`${dir}/notify`);
    assertEquals(again.keys, first.keys);
    assertEquals(again.subscriptions.map((s) => s.endpoint), [
      "https://push.example/b",
      "https://push.example/a",
    ]);
    assertEquals((await Deno.stat(`${dir}/notify`)).mode! & 0o777, 0o700);
    assertEquals((await Deno.stat(`${dir}/notify/vapid.json`)).mode! & 0o777, 0o600);
    assertEquals(await again.remove("https://push.example/b"), true);
    assertEquals(await again.remove("https://push.example/b"), false);
    assertEquals(again.problem, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged subscription list or key file is kept aside, reported, refused, never overwritten", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await open(dir);
    await first.add(SUB);
    const torn = '{"version": 1, "subscriptions": [';
    await Deno.writeTextFile(`${dir}/subscriptions.json`, torn);
    const damaged = await open(dir);
    assertEquals(damaged.subscriptions, []);
    assertMatch(damaged.problem!, /subscriptions\.json did not parse \(it is not whole JSON\)/);
    await assertRejects(() => damaged.add(SUB), /subscriptions\.json did not parse/);
    assertEquals(await Deno.readTextFile(`${dir}/subscriptions.json`), torn);
    const aside = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => n.includes("corrupt"))!;
    assertEquals(await Deno.readTextFile(`${dir}/${aside}`), torn);
    assertEquals(damaged.keys, first.keys);

    await Deno.remove(`${dir}/subscriptions.json`);
    await Deno.writeTextFile(`${dir}/vapid.json`, "not json");
    const keyless = await open(dir);
    assertEquals(keyless.keys, null);
    assertMatch(
      keyless.problem!,
      /vapid\.json did not parse .* changes nothing in the Web Push keys/,
    );
    await assertRejects(() => keyless.add(SUB), /vapid\.json did not parse/);
    assertEquals(await Deno.readTextFile(`${dir}/vapid.json`), "not json");

    // Removed by the person: the next start makes a new pair, and browsers subscribe again.
    await Deno.remove(`${dir}/vapid.json`);
    const rekeyed = await open(dir);
    assert(rekeyed.keys !== null && rekeyed.keys.publicKey !== first.keys!.publicKey, "a new pair");
    assertEquals(rekeyed.problem, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
