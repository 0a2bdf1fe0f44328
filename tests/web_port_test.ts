// Spawned tier: `task web` on a port something else holds ends in forge's words, naming the
// address and the way out, as forge itself does for its own port (server/socket.ts).
import { assertEquals, assertMatch } from "./assert.ts";

const REPO = new URL("..", import.meta.url).pathname;

Deno.test("task web on a taken port names the address and another --port", async () => {
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = held.addr.port;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "web", "--port", String(port)],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1, err);
  assertMatch(
    err,
    new RegExp(
      `^forge web: 127\\.0\\.0\\.1:${port} is taken \\(another forge web\\?\\): ` +
        `start with --port N \\(0 picks a free one\\)\\n$`,
    ),
  );
});
