// catalogue [server]: `server.enabled` turns the socket listener off. With it false no socket is
// served (nothing answers on the configured port), the log says so, and the rest of forge runs:
// the subsystems start, the account gateway listens, the schedules tick.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";

Deno.test("server.enabled = false: no socket, the log says so, the rest of forge runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-no-socket-" });
  // A port nothing else holds: taken, read and given back.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  await Deno.mkdir(`${dir}/proj`);
  await Deno.writeTextFile(
    `${dir}/forge.toml`,
    `[server]\nenabled = false\nbind = "127.0.0.1"\nport = ${port}\n[gateway]\nport = 0\n` +
      `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\ntoken = "sk-a"\n` +
      `base_url = "http://127.0.0.1:9"\n[[orgs]]\nname = "Acme"\naccounts = ["A"]\n` +
      `[[orgs.projects]]\nname = "proj"\npath = "${dir}/proj"\nauto_start = false\n`,
  );
  const log = memoryLogger();
  const server = await startServer({ configPath: `${dir}/forge.toml`, log });
  try {
    assertEquals(server.serving, false);
    let said = "";
    try {
      said = server.url;
    } catch (err) {
      said = (err as Error).message;
    }
    assertMatch(said, /^the socket is off: server\.enabled is false in forge\.toml$/);
    const off = log.records.find((r) => r.event === "server_socket_disabled");
    assert(off, "the log says the socket is off");
    assert(!log.records.some((r) => r.event === "server_listening"), "no listening record");
    // Nothing answers on the configured port.
    const refused = await Deno.connect({ hostname: "127.0.0.1", port }).then(
      (c) => (c.close(), false),
      (err) => err instanceof Deno.errors.ConnectionRefused,
    );
    assert(refused, `nothing listens on ${port}`);
    // The rest runs: every subsystem the config turns on started, the gateway listens.
    const states = server.registry.states();
    assert(states.find((s) => s.id === "board")?.why === null, JSON.stringify(states));
    assert(states.find((s) => s.id === "seats")?.why === null, JSON.stringify(states));
    assert(server.gateway.listener().ready, "the account gateway listens");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
