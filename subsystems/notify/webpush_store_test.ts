// docs/notify.md "Web Push": the VAPID pair is made once and kept; a state file that does not
// parse is kept aside and reported, never overwritten.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { WebPushStore } from "./webpush_store.ts";

const SUB = { endpoint: "https://push.example/a", keys: { p256dh: "BAAA", auth: "AAAA" } };

Deno.test("the VAPID pair is made on first use, kept, and the subscriptions outlive a restart", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await WebPushStore.open(`${dir}/notify`);
    await first.add(SUB);
    await first.add({ ...SUB, endpoint: "https://push.example/b" });
    await first.add(SUB); // again: replaced, not doubled
    const again = await WebPushStore.open(`${dir}/notify`);
    assertEquals(again.keys, first.keys);
    assertEquals(again.subscriptions.map((s) => s.endpoint), [
      "https://push.example/b",
      "https://push.example/a",
    ]);
    assertEquals((await Deno.stat(`${dir}/notify`)).mode! & 0o777, 0o700);
    assertEquals(await again.remove("https://push.example/b"), true);
    assertEquals(await again.remove("https://push.example/b"), false);
    assertEquals(again.problem, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged subscription file is kept aside and reported; a damaged key file takes its subscriptions aside", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await WebPushStore.open(dir);
    await first.add(SUB);
    await Deno.writeTextFile(`${dir}/subscriptions.json`, '{"version": 1, "subscriptions": [');
    const damaged = await WebPushStore.open(dir);
    assertEquals(damaged.subscriptions, []);
    assertMatch(
      damaged.problem!,
      /subscriptions\.json is damaged .* kept aside as subscriptions\.json\.damaged-\d+/,
    );
    const aside = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => n.includes("damaged"))!;
    assertEquals(await Deno.readTextFile(`${dir}/${aside}`), '{"version": 1, "subscriptions": [');
    assertEquals(damaged.keys, first.keys);

    await damaged.add(SUB);
    await Deno.writeTextFile(`${dir}/vapid.json`, "not json");
    const rekeyed = await WebPushStore.open(dir);
    assert(rekeyed.keys.publicKey !== first.keys.publicKey, "a new pair");
    assertEquals(rekeyed.subscriptions, []);
    assertMatch(rekeyed.problem!, /vapid\.json is damaged .*each browser subscribes again/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
