// Spawned tier: forge runs as a process with [vault] pointing at the Bitwarden-compatible fake
// over HTTPS (a throwaway CA the launcher trusts through DENO_CERT); two projects' leads run the
// real claude CLI against the fake Messages API, scripted to call forge's vault tools.
// spec: Editing the config > vault (every vault__* call parks as vault_ask_pending with a draft
// that draws no secret; respond_vault_ask approve / send_back / decline plus unlock material;
// the unlock re-pushes the other parked cards restamped; vault_ask_resolved names the ending;
// a wrong code keeps the card parked; vault_lock; biometric_enrol / _release / _rewrite and
// vault_enrolment_material through reply; vault_rotated on a rotation), subscribe > answering,
// and "no secret in the log or any frame but its one answer".
import { SEED, startFakeVault } from "../fixtures/vault_server/mod.ts";
import { makeTestTls } from "../fixtures/vault_server/tls.ts";
import type { Slot, VaultAnswer, WireCommand } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { type Msg, promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";
import { Wrapper } from "./vault_wrap.ts";

const SCRIPT = new URL("../fixtures/vault_server/script.json", import.meta.url).pathname;
const same = (a: unknown, b: Slot) => JSON.stringify(a) === JSON.stringify(b);

function pendingOn(c: ForgeClient, slot: Slot, pred: (u: Msg) => boolean = () => true) {
  return c.next((m) => {
    const u = updateOf(m, "vault_ask_pending");
    return u !== null && same(u.key, slot) && pred(u);
  }, 90_000).then((m) => typedUpdateOf(m, "vault_ask_pending")!);
}

function respond(c: ForgeClient, key: Slot, id: string, answer: VaultAnswer) {
  command(c, "respond_vault_ask", { key, id, answer });
}

async function reply(c: ForgeClient, cmd: WireCommand, n: number): Promise<unknown> {
  c.send({ kind: "command", command: cmd, reply_to: n });
  return (await c.next((m) => m.kind === "reply" && m.reply_to === n, 30_000)).body;
}

Deno.test({
  name: "the agent's vault calls park, unlock on approval, and keep every secret to its answer",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const tls = await makeTestTls();
  const vault = await startFakeVault({ tls: { cert: tls.cert, key: tls.key } });
  await using world = await seatWorld([{ name: "alpha" }, { name: "beta" }], SCRIPT);
  try {
    await Deno.writeTextFile(
      world.configPath,
      `\n[vault]\nenabled = true\nserver_url = "${vault.url}"\nemail = "${vault.state.email}"\n`,
      { append: true },
    );
    // The CA joins what the machine already trusts (Deno reads NODE_EXTRA_CA_CERTS too).
    const inherited = Deno.env.get("NODE_EXTRA_CA_CERTS");
    const bundle = `${world.dir}/trust.pem`;
    await Deno.writeTextFile(
      bundle,
      `${inherited ? await Deno.readTextFile(inherited) : ""}\n${tls.ca}`,
    );
    const forge = await world.startForge({ DENO_CERT: bundle, NODE_EXTRA_CA_CERTS: bundle });
    const alpha = world.lead("alpha"), beta = world.lead("beta");
    // One client per subject, so a seat's turn is read off its own client: home also carries
    // every seat's completed turn as fleet news.
    const a = await forge.ready(), b = await forge.ready(), ro = await forge.ready();
    const h = await forge.ready(), rh = await forge.ready();
    h.send({ kind: "subscribe", what: "home", answering: true });
    await h.next((m) => m.kind === "snapshot" && m.subject === "home");
    // A read-only home viewer: it reads everything slot-less but holds no secret.
    rh.send({ kind: "subscribe", what: "home", answering: false });
    await rh.next((m) => m.kind === "snapshot" && m.subject === "home");
    await subscribeSeat(a, alpha, true);
    await subscribeSeat(b, beta, true);
    await subscribeSeat(ro, alpha, false);
    const secrets: string[] = [vault.state.password];

    // 1. An agent's read parks; the read-only client sees the card, and no secret on it.
    command(a, "prompt", { key: alpha, text: "[[script:read_pw]] get it", attachments: [] });
    const card = await pendingOn(a, alpha);
    assertEquals(
      { ...card, id: null },
      {
        key: alpha,
        id: null,
        tool: "read",
        item: SEED.login.name,
        query: null,
        field: "password",
        diff: null,
        attachment: null,
        needs_unlock: true,
      },
    );
    assertEquals((await pendingOn(ro, alpha)).id, card.id);
    // 2. A second card on another seat.
    command(b, "prompt", { key: beta, text: "[[script:read_user]] get it", attachments: [] });
    const second = await pendingOn(b, beta, (u) => u.needs_unlock === true);

    // 3. Refusals leave the cards parked: a wrong code, a read-only answer, another seat's id.
    const good = await vault.totpNow();
    const bad = String((Number(good) + 500_000) % 1_000_000).padStart(6, "0");
    // A code is six digits, which a timestamp or a hash might hold by chance: it is looked for
    // as the JSON string a frame or a log record would carry it as.
    secrets.push(`"${bad}"`);
    respond(a, alpha, card.id, {
      approve: { unlock: { password: vault.state.password, code: bad } },
    });
    assertMatch(
      String((await a.next((m) => m.kind === "error", 30_000)).why),
      /the vault did not unlock: the two-step code was not accepted/,
    );
    respond(ro, alpha, card.id, "decline");
    assertMatch(
      String((await ro.next((m) => m.kind === "error")).why),
      /did not subscribe as answering/,
    );
    respond(a, alpha, second.id, "decline");
    assertMatch(
      String((await a.next((m) => m.kind === "error")).why),
      /is parked on Acme\/beta\/lead/,
    );

    // 4. Approval with the password and code: the agent receives the field; the other card is
    // pushed again as an ordinary approve card.
    const code = await vault.totpNow();
    secrets.push(`"${code}"`);
    respond(a, alpha, card.id, { approve: { unlock: { password: vault.state.password, code } } });
    const first = await untilResult(a, 90_000);
    assertEquals(toolResultsOf(first), [{ text: SEED.login.password, isError: false }]);
    const resolved = first.map((m) => updateOf(m, "vault_ask_resolved")).find(Boolean)!;
    assertEquals([resolved.id, resolved.ending], [card.id, "answered"]);
    const rebased = await pendingOn(b, beta, (u) => u.id === second.id && u.needs_unlock === false);
    assertEquals(rebased.tool, "read");
    respond(b, beta, second.id, { approve: { unlock: null } });
    assertEquals(toolResultsOf(await untilResult(b, 90_000)), [
      { text: SEED.keyed.username, isError: false },
    ]);

    // 5. Enrolment while open: the material, wrapped by the "authenticator", registered.
    const material = await reply(h, { vault_enrolment_material: {} }, 1) as {
      refresh_token: string;
      user_key: string;
    };
    secrets.push(material.user_key);
    const wrap = await Wrapper.make();
    assertEquals(
      await reply(h, {
        biometric_enrol: { device: "laptop", purpose: "vault", blob: await wrap.seal(material) },
      }, 2),
      true,
    );

    // 6. vault_lock: the next call needs unlock again; decline reaches the agent in words.
    a.send({ kind: "command", command: "vault_lock" });
    const declined = promptTurn(a, alpha, "[[script:read_pw]] again");
    const locked = await pendingOn(a, alpha, (u) => u.needs_unlock === true);
    respond(a, alpha, locked.id, "decline");
    assertEquals(toolResultsOf(await declined), [
      { text: "The person declined this vault call.", isError: true },
    ]);

    // 7. Send-back: a masked diff on the card, the note to the agent, nothing written.
    const sent = promptTurn(a, alpha, "[[script:update]] change it");
    const upd = await pendingOn(a, alpha, (u) => u.tool === "update");
    assertEquals(upd.diff, [{ field: "password", change: "set" }]);
    respond(a, alpha, upd.id, { send_back: { note: "not this one" } });
    assertEquals(toolResultsOf(await sent), [{
      text: "The person sent this vault call back without running it: not this one",
      isError: true,
    }]);
    // The agent's own value is in its own tool_use (the conversation); never on the card or in
    // the log.
    const agentValue = "agent-chosen-secret";

    // 8. Release: the blob comes back, the client unwraps it, the material unlocks; redeeming
    // the refresh token rotates it, pushed as vault_rotated; the client rewrites its row.
    const released = promptTurn(a, alpha, "[[script:read_pw]] once more");
    const again = await pendingOn(a, alpha, (u) => u.needs_unlock === true);
    const blob = await reply(h, { biometric_release: { device: "laptop", purpose: "vault" } }, 3);
    const opened = await wrap.open(String(blob));
    respond(a, alpha, again.id, { approve: { unlock: opened } });
    assertEquals(toolResultsOf(await released), [{ text: SEED.login.password, isError: false }]);
    const rotated = updateOf(
      await h.next((m) => updateOf(m, "vault_rotated") !== null),
      "vault_rotated",
    )!;
    const fresh = String(rotated.refresh_token);
    assert(fresh !== material.refresh_token);
    secrets.push(material.refresh_token, fresh);
    // The read-only home viewer was not sent it: a frame it is sent after the rotation arrives,
    // and nothing before it was vault_rotated (one socket's frames keep their order).
    rh.send({ kind: "subscribe", what: "home", answering: false });
    await rh.next((m) => m.kind === "snapshot" && m.subject === "home");
    assertEquals(
      rh.frames.filter((f) => f.type === "json" && updateOf(f.data, "vault_rotated") !== null),
      [],
      "a read-only connection was sent the rotated refresh token",
    );
    const rewrite = { device: "laptop", purpose: "vault" };
    assertEquals(
      await reply(h, {
        biometric_rewrite: {
          ...rewrite,
          blob: await wrap.seal({ ...opened, refresh_token: fresh }),
        },
      }, 4),
      true,
    );
    assertEquals(
      await reply(h, { biometric_rewrite: { ...rewrite, device: "phone", blob: "x" } }, 5),
      false,
    );
    h.send({ kind: "subscribe", what: "home", answering: true });
    const home = (await h.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
    assertEquals((home.vault as Msg).locked, false);
    const devices = (home.biometric as { devices: Msg[] }).devices;
    assertEquals(devices.map((d) => d.device), ["laptop"]);

    // 9. No secret in forge.log, nor in any frame the test received but its own answer: the
    // read values only in the seat's own tool_result frames, the token and key only in the
    // material reply and in vault_rotated to the answering home client.
    await forge.stop();
    const log = await Deno.readTextFile(`${world.dir}/forge/forge.log`);
    for (const s of [...secrets, agentValue, SEED.login.password, SEED.keyed.username]) {
      assert(!log.includes(s), `forge.log holds a secret (${s.slice(0, 3)}...)`);
    }
    const store = await Deno.readTextFile(`${world.dir}/forge/state/vault/enrolments.json`);
    assert(!store.includes(material.refresh_token) && !store.includes(material.user_key));
    for (const c of [a, b, ro, h, rh]) {
      for (const f of c.frames) {
        if (f.type !== "json") continue;
        const text = JSON.stringify(f.data);
        const allowed = c === h &&
          (f.data.kind === "reply" && f.data.reply_to === 1 ||
            updateOf(f.data, "vault_rotated") !== null);
        for (const s of secrets) {
          if (text.includes(s) && s !== vault.state.password) {
            assert(allowed, `a frame holds a secret (${s.slice(0, 3)}...): ${text.slice(0, 160)}`);
          }
        }
        assert(!text.includes(vault.state.password), `a frame holds the master password`);
        if (updateOf(f.data, "chat_appended") === null) assert(!text.includes(agentValue));
        assert(!text.includes(SEED.login.field.value) && !text.includes(SEED.keyed.password));
        for (const value of [SEED.login.password, SEED.keyed.username]) {
          if (!text.includes(value)) continue;
          const msg = (updateOf(f.data, "chat_appended")?.msg ?? {}) as Msg;
          assertEquals(msg.type, "user", `only the tool_result carries ${value.slice(0, 3)}...`);
        }
      }
    }
  } finally {
    await vault.close();
    await tls.remove();
  }
});
