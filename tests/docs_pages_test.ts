// docs/architecture.md's handler map is rendered from tools/docs_arch.ts's list of manifests,
// built without booting anything. A booted server's registry is the truth: the two must name the
// same areas, in the same order, answering the same kinds, commands, subjects, binary kinds and
// tools, or a newcomer following the page would look in the wrong place.
import { assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";
import type { AnyManifest } from "../server/subsystem.ts";
import { manifests } from "../tools/docs_arch.ts";

const routes = (m: AnyManifest) => ({
  id: m.id,
  switch: m.switch,
  verbs: [...m.verbs],
  commands: [...m.commands],
  subjects: [...m.subjects],
  binary: [...m.binary],
  tools: (m.tools ?? []).map((t) => t.name),
});

Deno.test("the handler map's areas are the booted registry's", async () => {
  await using t = await testServer(null);
  assertEquals(manifests().map(routes), t.server.registry.manifests.map(routes));
});
