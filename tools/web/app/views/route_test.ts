import { assertEquals } from "../../../../tests/assert.ts";
import { ForgeClient } from "../net/client.ts";
import { parseRoute, routeForge } from "./route.ts";

// The page's address: one forge's as it always was, several forges' qualified by host; and which
// forge an address is about.

Deno.test("route: addresses with and without a forge", () => {
  assertEquals(parseRoute("#/seat/Acme/alpha/lead"), {
    forge: null,
    page: "seat",
    seat: "Acme/alpha/lead",
    tab: "chat",
  });
  assertEquals(parseRoute("#/@box.lan:8790/seat/Acme/alpha/lead/review"), {
    forge: "box.lan:8790",
    page: "seat",
    seat: "Acme/alpha/lead",
    tab: "review",
  });
  assertEquals(parseRoute("#/@[::1]:8790/board"), { forge: "[::1]:8790", page: "board" });
  assertEquals(parseRoute("#/forges"), { forge: null, page: "forges" });
  assertEquals(parseRoute(""), { forge: null, page: "home" });
  assertEquals(parseRoute("#/nowhere"), { forge: null, page: "home" });
});

Deno.test("route: the forge named, else the one whose home lists the seat, else the first", () => {
  const a = new ForgeClient("ws://a.lan:1/socket");
  const b = new ForgeClient("ws://b.lan:2/socket");
  const seat = { org: "Acme", project: "gamma", label: "lead" };
  b.state.home = { agents: [{ slot: seat }] } as unknown as typeof b.state.home;
  const list = [a, b];
  assertEquals(routeForge(parseRoute("#/@a.lan:1/seat/Acme/gamma/lead"), list), a);
  assertEquals(routeForge(parseRoute("#/seat/Acme/gamma/lead"), list), b);
  assertEquals(routeForge(parseRoute("#/seat/Acme/other/lead"), list), a);
  assertEquals(routeForge(parseRoute("#/@gone.lan:9/board"), list), a);
});
