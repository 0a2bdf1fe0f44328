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

Deno.test("route: two forges hold the seat; an unqualified link opens the one waiting", () => {
  const a = new ForgeClient("ws://a.lan:1/socket");
  const b = new ForgeClient("ws://b.lan:2/socket");
  const seat = { org: "Demo", project: "hello", label: "lead" };
  const home = (pending: string | null) =>
    ({ agents: [{ slot: seat, pending }] }) as unknown as typeof a.state.home;
  a.state.home = home(null);
  b.state.home = home("permission");
  assertEquals(routeForge(parseRoute("#/seat/Demo/hello/lead"), [a, b]), b);
  // Neither waiting: the first that lists it, as before.
  b.state.home = home(null);
  assertEquals(routeForge(parseRoute("#/seat/Demo/hello/lead"), [a, b]), a);
  // A qualified link is never second-guessed.
  a.state.home = home("permission");
  assertEquals(routeForge(parseRoute("#/@b.lan:2/seat/Demo/hello/lead"), [a, b]), b);
});
