import { makeTestTls } from "../../fixtures/vault_server/tls.ts";
import { assertEquals } from "../../tests/assert.ts";
import { certOrigins } from "./cert_origins.ts";

Deno.test("cert origins: the certificate's names as the browser sends them, loopback left out", async () => {
  // The throwaway certificate names 127.0.0.1, localhost and the two names given here.
  const tls = await makeTestTls(["Phone.Forge.Test", "box.lan"]);
  try {
    const pem = await Deno.readTextFile(`${tls.dir}/srv.pem`);
    assertEquals(certOrigins(pem, 8791), ["https://phone.forge.test:8791", "https://box.lan:8791"]);
    assertEquals(certOrigins(pem, 443), ["https://phone.forge.test", "https://box.lan"]);
  } finally {
    await tls.remove();
  }
});

Deno.test("cert origins: a certificate for this machine alone names no origin to add", async () => {
  const tls = await makeTestTls();
  try {
    assertEquals(certOrigins(await Deno.readTextFile(`${tls.dir}/srv.pem`), 8791), []);
  } finally {
    await tls.remove();
  }
});
