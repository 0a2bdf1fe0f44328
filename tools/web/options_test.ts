import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { parseWebArgs, socketHostPort } from "./options.ts";

/** The words `parseWebArgs` refuses `args` with. */
function refusal(args: string[]): string {
  try {
    parseWebArgs(args);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${args.join(" ")} was accepted`);
}

// The web program's options: loopback as before; a private network's address only with TLS;
// never a public one.

Deno.test("web options: the defaults, and TLS with its two files", () => {
  assertEquals(parseWebArgs([]), {
    forge: "ws://127.0.0.1:8790/socket",
    port: 8791,
    bind: "127.0.0.1",
    tls: null,
  });
  assertEquals(
    parseWebArgs(["--bind", "192.168.1.5", "--cert", "c.pem", "--key", "k.pem", "--port", "0"]),
    {
      forge: "ws://127.0.0.1:8790/socket",
      port: 0,
      bind: "192.168.1.5",
      tls: { cert: "c.pem", key: "k.pem" },
    },
  );
});

Deno.test("web options: refused in words", () => {
  assertMatch(refusal(["--cert", "c.pem"]), /--cert and --key go together/);
  assertMatch(refusal(["--bind", "192.168.1.5"]), /needs --cert and --key/);
  assertMatch(
    refusal(["--bind", "8.8.8.8", "--cert", "c", "--key", "k"]),
    /never served publicly/,
  );
  assertMatch(refusal(["--bind", "0.0.0.0", "--cert", "c", "--key", "k"]), /never served publicly/);
  assertMatch(refusal(["--forge", "http://x"]), /not a ws:\/\/ or wss:\/\//);
  assertMatch(refusal(["--port", "70000"]), /not a port number/);
  assertMatch(refusal(["--colour", "x"]), /unknown option --colour/);
  assertMatch(refusal(["--port"]), /--port needs a value/);
});

Deno.test("web options: the relay's grant", () => {
  assertEquals(socketHostPort("ws://127.0.0.1:8790/socket"), "127.0.0.1:8790");
  assertEquals(socketHostPort("wss://box.lan/socket"), "box.lan:443");
});
