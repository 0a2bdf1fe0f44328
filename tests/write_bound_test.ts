import { assert, assertEquals } from "./assert.ts";
import { git, until } from "./harness.ts";
import { RawSocket } from "./raw_socket.ts";
import { type SpawnedForge, spawnForge } from "./spawned.ts";

// spec: Reaching it, "One frame write is bounded too": the bound is on each frame, so a reader
// that takes every frame well inside it is served a backlog far longer than it, and one that
// stops reading part-way through is still cut. The bound here is 1.5 s; each document_read
// answer is a frame of about 1 MB, which a reader taking 4 MB a second reads in a quarter of a
// second, a sixth of the bound; 20 of them are five seconds, more than three bounds.
const TIMERS = "write_ms=1500,keepalive_ms=600000";
const FILE_BYTES = 750_000; // about 1 MB once base64 in its answer
const READ_RATE = 4_000_000;
const READS = 20;
const seat = { org: "Acme", project: "proj", label: "lead" };

/** A forge whose project holds one large text file, with the write bound shortened. */
async function forgeWithLargeFile(): Promise<SpawnedForge> {
  const project = await Deno.makeTempDir({ prefix: "forge-write-bound-" });
  git(project, "init", "-q");
  await Deno.writeTextFile(`${project}/large.txt`, "line of text\n".repeat(FILE_BYTES / 13));
  const forge = await spawnForge(
    `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\nmodels = ["claude-sonnet-4-5"]\n\n` +
      `[[orgs]]\nname = "Acme"\naccounts = ["Fake"]\n\n` +
      `[[orgs.projects]]\nname = "proj"\npath = "${project}"\n`,
    { FORGE_TEST_TIMERS: TIMERS },
  );
  const stop = forge[Symbol.asyncDispose];
  return Object.assign(forge, {
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(project, { recursive: true });
    },
  });
}

/** A raw socket that asks for READS document reads, then reads at READ_RATE. */
async function backlog(forge: SpawnedForge): Promise<RawSocket> {
  const raw = await RawSocket.open(forge.port, { answerPings: true });
  await until(() => raw.texts().some((s) => s.includes('"settings"')), 30_000, "the greeting");
  raw.throttle(READ_RATE);
  const read = { kind: "document_read", session: seat, path: "large.txt", reviewable: false };
  for (let i = 0; i < READS; i++) await raw.sendText(JSON.stringify(read));
  return raw;
}

function answers(raw: RawSocket): number {
  return raw.texts().filter((s) => s.startsWith('{"kind":"document_read"')).length;
}

function endings(forge: SpawnedForge): string[] {
  return [...forge.stderr().matchAll(/"event":"connection_ended".*?"reason":"(\w+)"/g)].map((m) =>
    m[1]
  );
}

Deno.test("a reader taking each frame inside the write bound gets a backlog longer than it", async () => {
  await using forge = await forgeWithLargeFile();
  const raw = await backlog(forge);
  try {
    await until(
      () => answers(raw) === READS || endings(forge).length > 0,
      60_000,
      "every answer, or the connection's end",
    );
    assertEquals(endings(forge), []);
    assertEquals(answers(raw), READS);
    assertEquals(raw.schemaErrors, []);
  } finally {
    raw.close();
  }
});

Deno.test("a reader that stops part-way through a backlog is still cut by the write bound", async () => {
  await using forge = await forgeWithLargeFile();
  const raw = await backlog(forge);
  try {
    await until(() => answers(raw) >= 2, 30_000, "the first answers");
    raw.pause();
    await until(() => endings(forge).length > 0, 30_000, "the connection's end");
    assertEquals(endings(forge), ["write_bound"]);
    assert(answers(raw) < READS, "stopped before the last answer");
  } finally {
    raw.close();
  }
});
