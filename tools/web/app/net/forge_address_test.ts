import { assertEquals } from "../../../../tests/assert.ts";
import { forgeList, readAddress } from "./forge_address.ts";

// A forge's address as a person types it, read into the socket the page dials; and where the
// page's list of forges comes from.

Deno.test("address: host:port dials the page's scheme, /socket by default", () => {
  assertEquals(readAddress("box.lan:8790", "http://127.0.0.1:8791/"), {
    ok: true,
    url: "ws://box.lan:8790/socket",
    host: "box.lan:8790",
  });
  assertEquals(readAddress("box.lan:8791", "https://phone.lan:8791/#/").ok && "wss", "wss");
  assertEquals(
    readAddress("https://box.lan:8791", "http://127.0.0.1:1/"),
    { ok: true, url: "wss://box.lan:8791/socket", host: "box.lan:8791" },
  );
});

Deno.test("address: a socket URL stays as written; a path is on the page's own server", () => {
  assertEquals(readAddress(" ws://127.0.0.1:8790/socket ", "http://127.0.0.1:8791/"), {
    ok: true,
    url: "ws://127.0.0.1:8790/socket",
    host: "127.0.0.1:8790",
  });
  assertEquals(readAddress("/socket", "https://phone.lan:8791/?forge=x"), {
    ok: true,
    url: "wss://phone.lan:8791/socket",
    host: "phone.lan:8791",
  });
});

Deno.test("address: what is not one says why", () => {
  assertEquals(readAddress("  ", "http://127.0.0.1/"), { ok: false, why: "the address is empty" });
  assertEquals(readAddress("ftp://box.lan", "http://127.0.0.1/"), {
    ok: false,
    why: "ftp://box.lan: a forge is reached over ws, wss, http or https",
  });
  assertEquals(readAddress("box lan:99999", "http://127.0.0.1/").ok, false);
});

Deno.test("forge list: repeated ?forge= first, then the kept list, then the served forge", () => {
  const served = "ws://127.0.0.1:8790/socket";
  const kept = JSON.stringify(["ws://a:1/socket", "ws://b:2/socket"]);
  assertEquals(forgeList(new URLSearchParams("forge=x:1&forge=y:2&validate=1"), kept, served), {
    urls: ["x:1", "y:2"],
    from: "query",
  });
  assertEquals(forgeList(new URLSearchParams(""), kept, served), {
    urls: ["ws://a:1/socket", "ws://b:2/socket"],
    from: "kept",
  });
  for (const bad of [null, "", "not json", "{}", "[]"]) {
    assertEquals(forgeList(new URLSearchParams(), bad, served), { urls: [served], from: "served" });
  }
});
