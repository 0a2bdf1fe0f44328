// docs/client.md's library example is tools/client_example.ts, run here against a real forge
// (`deno task start`, a real claude CLI seat on the fake API) through a link that loses one of
// the seat's frames and later drops: the example prints the turn with the lost frame repaired in
// its place, redials, and what streamed while it was down comes repaired too. spec: What a client
// sends > command (reply_to), seat_range; What a client receives > update; Reaching it.
import { assert, assertEquals, assertMatch } from "../tests/assert.ts";
import { breakingProxy } from "../tests/conformance_proxy.ts";
import { seatWorld, subscribeSeat } from "../tests/seats_harness.ts";

const HERE = new URL("./", import.meta.url);

Deno.test("the library example runs: a reply refused, a seat followed, its lost frames repaired", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  await subscribeSeat(await forge.ready(), world.lead("alpha"));
  let lost = 0;
  let after = 0;
  let cut = 0;
  await using lossy = await breakingProxy(forge.url, (f) => {
    const seatFrame = f.kind === "update" && JSON.stringify(f.update).includes("chat_appended");
    if (lost === 1 && cut === 0 && seatFrame && ++after === 2) {
      cut++;
      return "cut";
    }
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
  assertEquals(run.code, 0, `exit ${run.code}: ${out}${new TextDecoder().decode(run.stderr)}`);
  const lines = out.trim().split("\n");
  assertMatch(lines[0], /^forge \S+, protocol 29$/);
  // This forge runs no vault: the reply command's refusal arrives as a ForgeRefusal.
  assertEquals(
    lines[1],
    "vault_enrolment_material refused: the vault subsystem is turned off by vault.enabled " +
      "in forge.toml",
  );
  assertMatch(lines[2], /^Acme\/alpha\/lead joined at seq \d+$/);
  assertEquals([lost, cut], [1, 1]);
  // The drop: one redial, and no second snapshot (the seat resumed from its number).
  assertEquals(lines.filter((l) => l.startsWith("link ")), [
    "link down, redial 1",
    "link back, 1 subscription(s) restored",
  ]);
  assertEquals(lines.filter((l) => l.includes(" joined at seq ")).length, 1, out);
  // Each frame once, in order: the lost one and the ones the drop cost, repaired in place.
  const seqs = lines.flatMap((l) => /^(\d+) [a-z_]+( \(repaired\))?$/.exec(l)?.[1] ?? [])
    .map(Number);
  assert(seqs.every((n, i) => i === 0 || n > seqs[i - 1]), out);
  assert(lines.filter((l) => l.endsWith(" (repaired)")).length >= 2, out);
  // The turn's result ends the loop, live or repaired (the rest of the turn can stream while the
  // link is down).
  assertMatch(lines.at(-2)!, /^\d+ chat_appended( \(repaired\))?$/);
  assertEquals(lines.at(-1), "2 gap(s) repaired");
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
