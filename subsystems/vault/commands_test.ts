// respond_vault_ask's refusal when the unlock fails on the server's side: forge's sentence naming
// what was wrong (a gateway's page where prelogin should be, a server out of reach), never the
// parser's or fetch's words, and the card stays parked. A stand-in answers for the vault server.
import { decodeCommand, type Wire } from "../../protocol/mod.ts";
import { assertEquals } from "../../tests/assert.ts";
import { fakePeer } from "../../tests/fake_peer.ts";
import { fakeHost, SLOT, toolCall } from "../../tests/vault_support.ts";
import { create } from "./mod.ts";

async function unlockRefusal(serverUrl: string): Promise<{ why: string; parked: number }> {
  const dir = await Deno.makeTempDir({ prefix: "forge-vault-" });
  const h = fakeHost({ server_url: serverUrl, email: "a@b.invalid" }, dir);
  const sub = create(h.host);
  try {
    const read = sub.tools.vault__read({ item: "x", field: "password" }, toolCall());
    const id = h.asks.list(SLOT)[0].id;
    const respond = (answer: Wire) =>
      Promise.resolve().then(() =>
        sub.commands.respond_vault_ask(
          decodeCommand({ respond_vault_ask: { key: SLOT, id, answer } }) as never,
          fakePeer(true),
        )
      );
    const why = await respond({ approve: { unlock: { password: "pw", code: null } } })
      .then(() => "unlocked", (err) => (err as Error).message);
    const parked = h.asks.list(SLOT).length;
    await respond("decline");
    await read;
    return { why, parked };
  } finally {
    await sub.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("an unlock against a page that is not Bitwarden's is refused in forge's words", async () => {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } }),
  );
  try {
    assertEquals(await unlockRefusal(`http://127.0.0.1:${server.addr.port}`), {
      why: "respond_vault_ask: the vault did not unlock: the vault server's answer to prelogin " +
        "is not what a Bitwarden server sends",
      parked: 1,
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("an unlock against a server out of reach names its URL, not fetch's words", async () => {
  assertEquals(await unlockRefusal("http://127.0.0.1:1"), {
    why: "respond_vault_ask: the vault did not unlock: the vault server at http://127.0.0.1:1 " +
      "could not be reached: the request could not be sent",
    parked: 1,
  });
});
