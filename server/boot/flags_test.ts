import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { flagOf, portFlag } from "./flags.ts";

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
