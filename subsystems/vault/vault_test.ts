import { SEED } from "../../fixtures/vault_server/mod.ts";
import type { Wire } from "../../protocol/mod.ts";
import type { ToolResult } from "../../server/subsystem.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { create } from "./mod.ts";
import { fakeHost, OTHER, setup, SLOT, toolCall } from "../../tests/vault_support.ts";
import { until } from "../../tests/harness.ts";

// spec: Editing the config > vault (every vault__* call parks as vault_ask_pending with a draft
// that draws no secret; respond_vault_ask approve / send_back / decline with unlock material;
// needs_unlock restamped from the live session; a wrong password or code keeps the card
// parked; bad input refused by name leaving every card as it was). Subsystem tier: the real
// session against the fake vault server, a Host with the server's own held-ask registry.

Deno.test("a read parks without a secret; a wrong code keeps it parked; approval unlocks, answers, and re-bases the other card", async () => {
  await using t = await setup();
  const read = t.call("vault__read", { item: SEED.login.name, field: "password" });
  const readId = t.lastId();
  const other = t.call("vault__read", { item: SEED.keyed.id, field: "username" });
  const otherId = t.lastId();
  const card = t.pending()[0].fields!;
  assertEquals(card, {
    key: SLOT,
    id: readId,
    tool: "read",
    item: SEED.login.name,
    query: null,
    field: "password",
    diff: null,
    attachment: null,
    needs_unlock: true,
  });
  const bad = String((Number(await t.vault.totpNow()) + 500_000) % 1_000_000).padStart(6, "0");
  await assertRejects(
    () =>
      t.respond(readId, { approve: { unlock: { password: t.vault.state.password, code: bad } } }),
    /did not unlock: the two-step code was not accepted/,
  );
  await assertRejects(
    () => t.respond(readId, { approve: { unlock: { password: "wrong", code: "123456" } } }),
    /did not unlock: the master password was not accepted/,
  );
  assertEquals(t.asks.list(SLOT).length, 2);
  assert(t.sub.session.locked);
  await t.respond(readId, await t.unlockWith());
  assertEquals(await read, { text: SEED.login.password });
  // The second card was pushed again, restamped as an ordinary approve card (merged by id).
  const restamped = t.pending().filter((u) => u.fields!.id === otherId);
  assertEquals(restamped.map((u) => u.fields!.needs_unlock), [true, false]);
  assertEquals(t.pending().filter((u) => u.fields!.id === readId).length, 1);
  await t.respond(otherId, { approve: { unlock: null } });
  assertEquals(await other, { text: SEED.keyed.username });
  assertEquals(
    t.updates.filter((u) => u.name === "vault_ask_resolved").map((u) => u.fields!.ending),
    ["answered", "answered"],
  );
  assert(t.log.records.some((r) => r.event === "vault_kdf"));
});

Deno.test("bad answers are refused by name and leave every card as it was", async () => {
  await using t = await setup();
  const read = t.call("vault__read", { item: SEED.login.name, field: "notes" });
  const id = t.lastId();
  const bads: [Wire, RegExp][] = [
    [{ approve: {} }, /^respond_vault_ask: answer\.approve\.unlock: missing/],
    ["maybe", /^respond_vault_ask: answer: expected "decline" or an object, got a string$/],
    [{ approve: { unlock: { password: "x" } } }, /: answer\.approve\.unlock\.code: missing/],
  ];
  for (const [bad, refusal] of bads) await assertRejects(() => t.respond(id, bad), refusal);
  await assertRejects(() => t.respond("nope", "decline"), /no vault call nope is waiting/);
  await assertRejects(() => t.respond(id, "decline", OTHER), /parked on Acme\/proj\/lead, not/);
  await assertRejects(
    () => t.respond(id, "decline", SLOT, false),
    /did not subscribe as answering/,
  );
  await assertRejects(
    () => t.respond(id, { approve: { unlock: null } }),
    /the vault is locked, so card .* needs the master password/,
  );
  assertEquals(t.asks.list(SLOT).length, 1);
  assertEquals(t.pending().length, 1);
  await t.respond(id, await t.unlockWith());
  assertEquals(await read, { text: SEED.login.notes });
  // Material for a card that did not ask: the vault is open, so this card is an approve card.
  const again = t.call("vault__read", { item: SEED.login.name, field: "uri" });
  const id2 = t.lastId();
  assertEquals(t.pending().at(-1)!.fields!.needs_unlock, false);
  const material = await t.unlockWith();
  await assertRejects(() => t.respond(id2, material), /did not ask for unlock material/);
  await t.respond(id2, { approve: { unlock: null } });
  assertEquals(await again, { text: SEED.login.uri });
});

Deno.test("decline and send-back reach the agent in words; nothing runs", async () => {
  await using t = await setup();
  const declined = t.call("vault__read", { item: SEED.login.name, field: "password" });
  await t.respond(t.lastId(), "decline");
  const sent = t.call("vault__update", { item: SEED.login.name, set: { password: "new" } });
  assertEquals(t.pending().at(-1)!.fields!.diff, [{ field: "password", change: "set" }]);
  await t.respond(t.lastId(), { send_back: { note: "use the staging item" } });
  assertEquals(await declined, { text: "The person declined this vault call.", isError: true });
  assertEquals(await sent, {
    text: "The person sent this vault call back without running it: use the staging item",
    isError: true,
  });
  assert(t.vault.state.requests.every((r) => r.path !== "/identity/connect/token"));
});

Deno.test("vault_lock locks; the next call needs unlock, and parked cards re-stamp the other way", async () => {
  await using t = await setup();
  const first = t.call("vault__search", { query: "probe" });
  await t.respond(t.lastId(), await t.unlockWith());
  const hits = JSON.parse((await first).text);
  assertEquals(hits.map((h: { name: string }) => h.name), [SEED.login.name]);
  const parked = t.call("vault__read", { item: SEED.login.name, field: "password" });
  const id = t.lastId();
  await t.cmd("vault_lock", null);
  assert(t.sub.session.locked);
  assertEquals(t.pending().filter((u) => u.fields!.id === id).map((u) => u.fields!.needs_unlock), [
    false,
    true,
  ]);
  const later = t.call("vault__read", { item: SEED.login.name, field: "username" });
  assertEquals(t.pending().at(-1)!.fields!.needs_unlock, true);
  await t.respond(t.lastId(), await t.unlockWith());
  assertEquals(await later, { text: SEED.login.username });
  await t.respond(id, { approve: { unlock: null } });
  assertEquals(await parked, { text: SEED.login.password });
});

Deno.test("rotated keys (a MAC failure) and a refused refresh each lock the session", async () => {
  await using t = await setup({ tokenTtl: 30 });
  const a = t.call("vault__read", { item: SEED.login.name, field: "password" });
  await t.respond(t.lastId(), await t.unlockWith());
  assertEquals(await a, { text: SEED.login.password });
  // Each call refreshes (the token is inside its last minute): the rotation is pushed.
  const rotated = t.updates.filter((u) => u.name === "vault_rotated");
  assert(rotated.length >= 1);
  // The token is a secret: it goes to answering connections alone.
  assert(rotated.every((u) => t.answeringOnly.has(u)), "vault_rotated went to every connection");
  assertEquals(rotated.at(-1)!.fields!.refresh_token, t.sub.session.material()!.refresh_token);
  await t.vault.rotateUserKey();
  const b = t.call("vault__read", { item: SEED.login.name, field: "password" });
  const waiting = t.call("vault__read", { item: SEED.login.name, field: "notes" });
  const waitingId = t.lastId();
  await t.respond(t.asks.list(SLOT)[0].id, { approve: { unlock: null } });
  assertMatch((await b).text, /the vault is locked \(keys rotated\): the call did not run/);
  assertEquals(t.sub.session.lastLock, "keys_rotated");
  assertEquals(
    t.pending().filter((u) => u.fields!.id === waitingId).at(-1)!.fields!.needs_unlock,
    true,
  );
  await t.respond(waitingId, await t.unlockWith());
  assertEquals(await waiting, { text: SEED.login.notes });
  t.vault.revokeRefreshTokens();
  const c = t.call("vault__read", { item: SEED.login.name, field: "password" });
  await t.respond(t.lastId(), { approve: { unlock: null } });
  assertMatch((await c).text, /the vault is locked \(refresh failed\)/);
  assertEquals(t.sub.session.lastLock, "refresh_failed");
});

Deno.test("create, update (a cipher-keyed item), attachment and search run on the open session", async () => {
  await using t = await setup();
  const approve = async (p: Promise<ToolResult>) => {
    await t.respond(
      t.lastId(),
      t.sub.session.locked ? await t.unlockWith() : { approve: { unlock: null } },
    );
    return await p;
  };
  // vault_ask_resolved goes out once the vault item changed: count the server's items then.
  const atResolve: number[] = [];
  t.onEmit((u) => u.name === "vault_ask_resolved" && atResolve.push(t.vault.state.ciphers.length));
  const before = t.vault.state.ciphers.length;
  const made = await approve(
    t.call("vault__create", {
      name: "new-item",
      fields: { username: "u", password: "pw-new", pin: "9" },
    }),
  );
  assertMatch(made.text, /^Created "new-item" \(id .+\)\.$/);
  assertEquals(atResolve, [before + 1], "resolved after the item was created");
  assertEquals(
    t.pending()[0].fields!.diff,
    [{ field: "username", change: "set" }, { field: "password", change: "set" }, {
      field: "pin",
      change: "set",
    }],
  );
  assertEquals(
    (await approve(t.call("vault__read", { item: "new-item", field: "pin" }))).text,
    "9",
  );
  await approve(
    t.call("vault__update", { item: SEED.keyed.name, set: { password: "p2", notes: null } }),
  );
  assertEquals(
    (await approve(t.call("vault__read", { item: SEED.keyed.name, field: "password" }))).text,
    "p2",
  );
  // The card names the attachment; the open vault fills in its size (pushed again, by id).
  const fetching = t.call("vault__attachment", {
    item: SEED.login.id,
    attachment: SEED.login.attachment.name,
  });
  const attId = t.lastId();
  const sized = () =>
    t.pending().filter((u) => u.fields!.id === attId).map((u) => u.fields!.attachment);
  await until(() => sized().length === 2, 10_000, "the size restamp");
  assertEquals(sized(), [
    { name: SEED.login.attachment.name, size: null },
    { name: SEED.login.attachment.name, size: SEED.login.attachment.body.length },
  ]);
  const att = await approve(fetching);
  assertEquals(att.text, SEED.login.attachment.body);
  const missing = await approve(t.call("vault__read", { item: SEED.login.name, field: "nope" }));
  assertEquals(missing.isError, true);
  assertMatch(
    missing.text,
    /has no field "nope" \(it has: username, password, uri, notes, api-token\)/,
  );
});

Deno.test("enrolment: material, enrol, release and the update-only rewrite; the store is 0600 and blobs only", async () => {
  await using t = await setup();
  assertEquals(await t.cmd("vault_enrolment_material", {}), null);
  await assertRejects(
    () => t.cmd("vault_enrolment_material", {}, false),
    /only to a connection that answers/,
  );
  const enrol = { device: "laptop", purpose: "vault", blob: "wrapped-blob-1" };
  await assertRejects(
    () => t.cmd("biometric_enrol", enrol),
    /the vault is locked; enrol while it is open/,
  );
  const r = t.call("vault__read", { item: SEED.login.name, field: "username" });
  await t.respond(t.lastId(), await t.unlockWith());
  await r;
  const material = await t.cmd("vault_enrolment_material", {}) as {
    refresh_token: string;
    user_key: string;
  };
  assertEquals(material.user_key.length, 88);
  assertEquals(await t.cmd("biometric_enrol", enrol), true);
  const path = `${t.host.stateDir}/vault/enrolments.json`;
  assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
  const text = await Deno.readTextFile(path);
  assert(text.includes("wrapped-blob-1") && !text.includes(material.refresh_token));
  const rel = { device: "laptop", purpose: "vault" };
  assertEquals(await t.cmd("biometric_release", rel), "wrapped-blob-1");
  assertEquals(await t.cmd("biometric_rewrite", { ...enrol, blob: "wrapped-blob-2" }), true);
  assertEquals(await t.cmd("biometric_release", rel), "wrapped-blob-2");
  assertEquals(await t.cmd("biometric_rewrite", { ...enrol, device: "phone" }), false);
  await assertRejects(
    () => t.cmd("biometric_release", { device: "phone", purpose: "vault" }),
    /phone has no enrolment for vault/,
  );
  await assertRejects(
    () => t.cmd("biometric_enrol", { device: "x" }),
    /^biometric_enrol: purpose: missing \(expected a string\); blob: missing \(expected a string\)$/,
  );
  const home = await t.sub.homeFields();
  const devices = (home.biometric as { devices: { device: string; purposes: Wire[] }[] }).devices;
  assertEquals(devices.map((d) => d.device), ["laptop"]);
  assert(!JSON.stringify(home).includes("wrapped-blob"));
  assertEquals((home.vault as { locked: boolean }).locked, false);
  // The released material opens a locked session with no password (and rotates the token).
  await t.cmd("vault_lock", null);
  const before = t.updates.filter((u) => u.name === "vault_rotated").length;
  const again = t.call("vault__read", { item: SEED.login.name, field: "password" });
  await assertRejects(
    () =>
      t.respond(t.lastId(), {
        approve: { unlock: { ...material, user_key: btoa("x".repeat(64)) } },
      }),
    /the released user key does not open this vault/,
  );
  await t.respond(t.lastId(), { approve: { unlock: material } });
  assertEquals(await again, { text: SEED.login.password });
  assert(t.updates.filter((u) => u.name === "vault_rotated").length > before);
});

Deno.test("no secret reaches the log or any update but the approved call's answer", async () => {
  await using t = await setup();
  const read = t.call("vault__read", { item: SEED.login.name, field: "password" });
  const code = await t.vault.totpNow();
  await t.respond(t.lastId(), { approve: { unlock: { password: t.vault.state.password, code } } });
  await read;
  const made = t.call("vault__create", { name: "n", fields: { password: "created-secret-value" } });
  await t.respond(t.lastId(), { approve: { unlock: null } });
  await made;
  const seen = JSON.stringify(t.log.records) +
    JSON.stringify(t.updates.filter((u) => u.name !== "vault_rotated"));
  for (
    const secret of [
      t.vault.state.password,
      SEED.login.password,
      SEED.login.field.value,
      "created-secret-value",
      t.sub.session.material()!.refresh_token,
      t.sub.session.material()!.user_key,
    ]
  ) assert(!seen.includes(secret), `a secret leaked: ${secret.slice(0, 3)}...`);
  assert(!t.log.records.some((r) => JSON.stringify(r).includes(`"${code}"`)));
});

Deno.test("the idle bound locks the session and re-stamps a parked card", async () => {
  await using t = await setup();
  const first = t.call("vault__read", { item: SEED.login.name, field: "username" });
  await t.respond(t.lastId(), await t.unlockWith());
  await first;
  // Both cards park while the session is open; the bound is a live key, read at the next use
  // (0.001 minutes is 60 ms), so the approved call arms the short timer.
  const parked = t.call("vault__read", { item: SEED.login.name, field: "username" });
  const id = t.lastId();
  const waiting = t.call("vault__read", { item: SEED.login.name, field: "notes" });
  const waitingId = t.lastId();
  (t.config.areas.vault as Record<string, unknown>).idle_lock_minutes = 0.001;
  await t.respond(id, { approve: { unlock: null } });
  await parked;
  await until(() => t.sub.session.locked, 10_000, "the idle lock");
  assertEquals(t.sub.session.lastLock, "idle");
  assertEquals(
    t.pending().filter((u) => u.fields!.id === waitingId).map((u) => u.fields!.needs_unlock),
    [false, true],
  );
  await t.respond(waitingId, "decline");
  await waiting;
});

Deno.test("a vault with no server_url answers the agent at once instead of parking a card", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-vault-" });
  try {
    const h = fakeHost({ server_url: null, email: "a@b.invalid" }, dir);
    const sub = create(h.host);
    const res = await sub.tools.vault__read({ item: "x", field: "password" }, toolCall());
    assertEquals(res, {
      text: "The vault cannot be used: [vault] in forge.toml names no server_url and email.",
      isError: true,
    });
    assertEquals(h.updates.length, 0);
    assertEquals((await sub.homeFields()).vault, null);
    (h.config.areas.vault as Record<string, unknown>).server_url = "http://vault.example.invalid";
    assertMatch(
      (await sub.tools.vault__read({ item: "x", field: "password" }, toolCall())).text,
      /vault.server_url must be https \(plain http only on loopback\)/,
    );
    await sub.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an Argon2id account unlocks the same way (prelogin names the KDF)", async () => {
  await using t = await setup({ kdf: "argon2id" });
  const read = t.call("vault__read", { item: SEED.login.name, field: "password" });
  await t.respond(t.lastId(), await t.unlockWith());
  assertEquals(await read, { text: SEED.login.password });
  const kdf = t.log.records.find((r) => r.event === "vault_kdf") as unknown as { kdf: number };
  assertEquals(kdf.kdf, 1);
});
