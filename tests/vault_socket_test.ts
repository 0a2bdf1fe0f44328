import { startFakeVault } from "../fixtures/vault_server/mod.ts";
import type { WireCommand } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";

// spec: What a subject carries > home (`vault`: lock state and idle bound, null without
// [vault]; `biometric`: devices, purposes, stamps, never a blob); command > reply_to (the four
// biometric commands answer through reply, a refusal as the reply's body). Socket tier: a
// real WebSocket client against forge with the vault on, over the fake vault server.

const vaultConfig = (url: string) =>
  `${SAMPLE_CONFIG}\n[vault]\nenabled = true\nserver_url = "${url}"\nemail = "probe@example.invalid"\nidle_lock_minutes = 20\n`;

Deno.test("home's vault row is the locked session at boot; biometric lists no blob; off means null", async () => {
  const vault = await startFakeVault({ iterations: 5000 });
  try {
    await using t = await testServer(vaultConfig(vault.url));
    const c = await t.ready();
    c.send({ kind: "subscribe", what: "home", answering: false });
    const snap = await c.next((m) => m.kind === "snapshot");
    const data = snap.data as Record<string, unknown>;
    assertEquals(data.vault, { locked: true, lock_reason: "boot", idle_lock_minutes: 20 });
    assertEquals(data.biometric, { devices: [] });
  } finally {
    await vault.close();
  }
  await using off = await testServer(SAMPLE_CONFIG);
  const c = await off.ready();
  c.send({ kind: "subscribe", what: "home", answering: false });
  const data = (await c.next((m) => m.kind === "snapshot")).data as Record<string, unknown>;
  assertEquals(data.vault, null);
});

Deno.test("the biometric commands answer through reply, refusals in the body; vault_lock runs bare", async () => {
  const vault = await startFakeVault({ iterations: 5000 });
  try {
    await using t = await testServer(vaultConfig(vault.url));
    const c = await t.ready();
    const answer = async (n: number) =>
      (await c.next((m) => m.kind === "reply" && m.reply_to === n)).body;
    const reply = (command: WireCommand, n: number) => {
      c.send({ kind: "command", command, reply_to: n });
      return answer(n);
    };
    // Not answering yet: the material is withheld, in words.
    assertMatch(
      String(await reply({ vault_enrolment_material: {} }, 1)),
      /only to a connection that answers/,
    );
    c.send({ kind: "subscribe", what: "home", answering: true });
    await c.next((m) => m.kind === "snapshot");
    assertEquals(await reply({ vault_enrolment_material: {} }, 2), null);
    assertMatch(
      String(await reply({ biometric_enrol: { device: "d", purpose: "vault", blob: "b" } }, 3)),
      /the vault is locked; enrol while it is open/,
    );
    assertMatch(
      String(await reply({ biometric_release: { device: "d", purpose: "vault" } }, 4)),
      /d has no enrolment for vault/,
    );
    assertEquals(
      await reply({ biometric_rewrite: { device: "d", purpose: "vault", blob: "b" } }, 5),
      false,
    );
    // A bad field is refused by the command's schema, still in the reply's body.
    const bad = { biometric_rewrite: { device: "d", purpose: "", blob: 7 } };
    c.sendUntyped({ kind: "command", command: bad, reply_to: 6 });
    assertEquals(
      await answer(6),
      "biometric_rewrite: purpose: must not be empty; blob: expected a string, got 7",
    );
    c.send({ kind: "command", command: "vault_lock" });
    c.send({
      kind: "command",
      command: {
        respond_vault_ask: {
          key: { org: "Acme", project: "proj", label: "lead" },
          id: "nope",
          answer: "decline",
        },
      },
    });
    const e = await c.next((m) => m.kind === "error");
    assertEquals(e.why, "respond_vault_ask: no vault call nope is waiting for an answer");
    // The rewrite never created a row: the store has nothing to list.
    c.send({ kind: "subscribe", what: "home", answering: true });
    const data = (await c.next((m) => m.kind === "snapshot")).data as Record<string, unknown>;
    assertEquals(data.biometric, { devices: [] });
    assert(!t.log.records.some((r) => r.level === "error"));
  } finally {
    await vault.close();
  }
});
