// docs/client.md's library example is tools/client_example.ts, run here against a real forge
// (`deno task start`, a real claude CLI seat on the fake API) through a link that loses one of
// the seat's frames: the example prints the turn with the lost frame repaired in its place.
// spec: What a client sends > command (reply_to), seat_range; What a client receives > update.
import { assert, assertEquals, assertMatch } from "../tests/assert.ts";
import { breakingProxy } from "../tests/conformance_proxy.ts";
import { seatWorld, subscribeSeat } from "../tests/seats_harness.ts";

const HERE = new URL("./", import.meta.url);

Deno.test("the library example runs: a reply refused, a seat followed, its lost frame repaired", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  await subscribeSeat(await forge.ready(), world.lead("alpha"));
  let lost = 0;
  await using lossy = await breakingProxy(forge.url, (f) => {
    const lose = lost === 0 && f.kind === "update" && f.span === 1 &&
      JSON.stringify(f.update).includes('"type":"assistant"');
    if (lose) lost++;
    return lose;
  });
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      new URL("client_example.ts", HERE).pathname,
      lossy.url,
      "Acme/alpha/lead",
      "[[script:hello]] say hello",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(run.stdout);
  assertEquals(run.code, 0, out + new TextDecoder().decode(run.stderr));
  const lines = out.trim().split("\n");
  assertMatch(lines[0], /^forge \S+, protocol 29$/);
  // This forge runs no vault: the reply command's refusal arrives as a ForgeRefusal.
  assertEquals(
    lines[1],
    "vault_enrolment_material refused: the vault subsystem is turned off by vault.enabled " +
      "in forge.toml",
  );
  assertMatch(lines[2], /^Acme\/alpha\/lead joined at seq \d+$/);
  assertEquals(lost, 1);
  assertEquals(lines.filter((l) => l.endsWith(" (repaired)")).length, 1, out);
  assertMatch(lines.at(-2)!, /^\d+ chat_appended$/);
  assertEquals(lines.at(-1), "1 gap(s) repaired");
});

Deno.test("docs/client.md shows the example as the file holds it", async () => {
  const page = await Deno.readTextFile(new URL("../docs/client.md", HERE));
  const file = await Deno.readTextFile(new URL("client_example.ts", HERE));
  const shown = /## The library[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1];
  assert(shown, "docs/client.md has a ts block under The library");
  const held = /\/\/ --- docs\/client\.md shows from here -+\n([\s\S]*?)\/\/ --- to here/.exec(file)
    ?.[1];
  assertEquals(shown, held);
});
