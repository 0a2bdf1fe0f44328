import { assertEquals, assertRejects, assertThrows } from "../../tests/assert.ts";
import { checkFlags, flagOf, portFlag } from "./flags.ts";

Deno.test("a flag is read as `--name V` or `--name=V`; absent, it is null", () => {
  assertEquals(flagOf(["--config", "a.toml"], "--config"), "a.toml");
  assertEquals(flagOf(["--config=b.toml"], "--config"), "b.toml");
  assertEquals(flagOf(["--port", "1"], "--config"), null);
});

Deno.test("a port flag is a whole number from 0 to 65535, refused in words otherwise", async () => {
  assertEquals(portFlag(["--port", "0"], "--port"), 0);
  assertEquals(portFlag(["--port=65535"], "--port"), 65535);
  assertEquals(portFlag([], "--port"), undefined);
  for (const bad of ["65536", "-1", "8o", "", "1.5", "0x10"]) {
    await assertRejects(
      () => Promise.resolve().then(() => portFlag(["--gateway-port", bad], "--gateway-port")),
      new RegExp(`^--gateway-port takes a port, a whole number from 0 to 65535, not \`${bad}\`$`),
    );
  }
});

Deno.test("a command line holding anything but forge's flags is refused, naming what", () => {
  checkFlags(["--config", "a.toml", "--port=0", "--gateway-port", "0"]);
  checkFlags([]);
  assertThrows(
    () => checkFlags(["--port", "0", "--prot", "8795"]),
    /^forge does not know `--prot` on its command line: forge takes --config PATH, --port N, --gateway-port N$/,
  );
  assertThrows(() => checkFlags(["serve"]), /^forge does not know `serve`/);
  assertThrows(() => checkFlags(["--port"]), /^--port needs a value after it/);
});
