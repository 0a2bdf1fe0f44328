// Spawned tier: a forge started on a port something else holds ends in its own words and has
// started no seat. Its socket's port is bound before any seat can start (server/boot/socket.ts,
// the listen phase): a lead with auto_start launched first would leave its CLI running after the
// forge that launched it had exited.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { keptDenoCache } from "./harness.ts";
import { seatWorld } from "./seats_harness.ts";

const REPO = new URL("..", import.meta.url).pathname;

Deno.test("a forge on a taken port says so and starts no seat's CLI", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = held.addr.port;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "start", "--config", world.configPath, "--port", String(port)],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      ...keptDenoCache(),
      HOME: `${world.dir}/home`,
      CLAUDE_CONFIG_DIR: `${world.dir}/claude`,
    },
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1, stderr);
  assertMatch(
    stderr,
    new RegExp(
      `^forge could not start while binding the socket's port \\(the listen phase\\): ` +
        `127\\.0\\.0\\.1:${port} is taken \\(another forge\\?\\): start with --port N or set ` +
        `\\[server\\] port$`,
      "m",
    ),
  );
  // forge.log records each CLI it spawns (`seat_spawned`, with its pid): there must be none.
  const log = await Deno.readTextFile(`${world.dir}/forge/forge.log`).catch(() => "");
  const spawned = log.split("\n").filter((l) => l.includes('"seat_spawned"'));
  assert(
    spawned.length === 0,
    `a seat's CLI was started by a forge that could not serve:\n${spawned}`,
  );
});
