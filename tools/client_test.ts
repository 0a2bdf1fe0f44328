import { assertEquals, assertThrows } from "../tests/assert.ts";
import { socketUrl } from "./client.ts";

Deno.test("the client dials --url, else loopback on --port, and refuses either in its words", () => {
  assertEquals(socketUrl(null, null), "ws://127.0.0.1:8790/socket");
  assertEquals(socketUrl("8795", null), "ws://127.0.0.1:8795/socket");
  assertEquals(socketUrl("1", "wss://forge.lan:9/socket"), "wss://forge.lan:9/socket");
  assertThrows(
    () => socketUrl("abc", null),
    /^--port takes a port, a whole number from 0 to 65535, not `abc`$/,
  );
  assertThrows(() => socketUrl("65536", null), /not `65536`$/);
  for (const bad of ["127.0.0.1:8790", "http://127.0.0.1:8790/socket", "ws://"]) {
    assertThrows(() => socketUrl(null, bad), /^--url takes a ws:\/\/ or wss:\/\/ address/);
  }
});
