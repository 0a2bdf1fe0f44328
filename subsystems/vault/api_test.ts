// The vault server's wrong answers and a server out of reach, in forge's words: a gateway's HTML
// page, a body of another shape, a port nothing listens on. A stand-in server answers each (a
// stub of the remote service for the error paths; the fake Bitwarden server covers the rest).
import { assertEquals } from "../../tests/assert.ts";
import { VaultApi, VaultServerError } from "./api.ts";

/** The error a call rejects with: its reason and message (never an engine's words). */
function refusal(call: () => Promise<unknown>): Promise<[string, string] | string> {
  return call().then(
    () => "resolved",
    (err) => err instanceof VaultServerError ? [err.reason, err.message] : `${err}`,
  );
}

/** A server answering every request with `body` (200), until the returned close. */
function answering(body: string, type: string) {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response(body, { headers: { "content-type": type } }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const wrong = (what: string): [string, string] => [
  "unreadable",
  `the vault server's answer to ${what} is not what a Bitwarden server sends`,
];

Deno.test("an answer that is not Bitwarden's is named by its request, in forge's words", async () => {
  for (
    const [body, type] of [["<html>gateway</html>", "text/html"], [
      '{"unexpected":true}',
      "application/json",
    ]]
  ) {
    const stub = answering(body, type);
    try {
      const api = new VaultApi(stub.url);
      assertEquals(await refusal(() => api.prelogin("a@b.invalid")), wrong("prelogin"));
      assertEquals(
        await refusal(() => api.passwordGrant("a@b.invalid", "hash", null)),
        wrong("the token request"),
      );
      assertEquals(await refusal(() => api.refreshGrant("rt")), wrong("the token request"));
      assertEquals(await refusal(() => api.sync("at")), wrong("sync"));
      assertEquals(await refusal(() => api.writeCipher("at", null, {})), wrong("the item's write"));
      assertEquals(
        await refusal(() => api.attachment("at", "c", "a")),
        wrong("the attachment's request"),
      );
    } finally {
      await stub.close();
    }
  }
});

Deno.test("a vault server out of reach is named by its URL, not by fetch", async () => {
  // A port that was just listened on and closed refuses; port 1 is one fetch will not ask.
  const gone = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (gone.addr as Deno.NetAddr).port;
  gone.close();
  assertEquals(
    await refusal(() => new VaultApi(`http://127.0.0.1:${port}`).prelogin("a@b.invalid")),
    [
      "unreachable",
      `the vault server at http://127.0.0.1:${port} could not be reached: the connection was refused`,
    ],
  );
  assertEquals(await refusal(() => new VaultApi("http://127.0.0.1:1/").sync("at")), [
    "unreachable",
    "the vault server at http://127.0.0.1:1 could not be reached: the request could not be sent",
  ]);
});
