import { assert, assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";

// spec: kind 3: with deflate=1, a ServerMessage of 64 KiB or more crosses gzipped behind the tag;
// a smaller frame is the text frame it has always been; order is the socket's.
Deno.test("deflate=1: big frames cross as kind 3, small ones as text, in order", async () => {
  await using t = await testServer(null);
  const c = await t.ready({ deflate: true });
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  const big = "y".repeat(200_000);
  t.server.workspace.emit({
    name: "fatal_error",
    fields: { error: "config_invalid", message: "small-1" },
  });
  t.server.workspace.emit({
    name: "fatal_error",
    fields: { error: "config_invalid", message: big },
  });
  t.server.workspace.emit({
    name: "fatal_error",
    fields: { error: "config_invalid", message: "small-2" },
  });
  const frames = [];
  for (let i = 0; i < 3; i++) frames.push(await c.nextFrame((f) => f.type === "json"));
  const seen = frames.map((f) =>
    f.type === "json"
      ? [
        (f.data.update as { fatal_error: { message: string } }).fatal_error.message.slice(
          0,
          7,
        ),
        f.compressed,
      ]
      : null
  );
  assertEquals(seen, [["small-1", false], ["yyyyyyy", true], ["small-2", false]]);
  const raw = c.frames.filter((f) => f.type === "json" && f.compressed);
  assertEquals(raw.length, 1);
});

Deno.test("without deflate=1 a big frame is plain text", async () => {
  await using t = await testServer(null);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  t.server.workspace.emit({
    name: "fatal_error",
    fields: { error: "config_invalid", message: "z".repeat(300_000) },
  });
  const f = await c.nextFrame((x) => x.type === "json");
  assert(f.type === "json" && !f.compressed);
});
