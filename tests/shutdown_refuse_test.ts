import { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";
import { testManifest } from "./registry_fakes.ts";

// A shutdown ends the seats before it lets the port go, and that takes seconds (each CLI is
// asked to close). A client that dials again meanwhile - a web page's or the SDK's redial - must
// not be greeted by the forge that is going: it would attach, take control, and be dropped a
// moment later. From the moment a shutdown begins the socket takes no one, so the redial waits
// for the next forge. A subsystem that stops only when the test says holds the shutdown open.
Deno.test("a forge shutting down greets no one who dials while its seats end", async () => {
  const stopping = Promise.withResolvers<void>();
  const slow = testManifest("slow_stop", { note: "its stop waits for the test" }, () => ({
    stop: () => stopping.promise,
  }));
  await using t = await testServer(SAMPLE_CONFIG, { extra: [slow] });
  const held = await t.ready();
  let stopped = false;
  const stop = t.server.stop().then(() => stopped = true);
  try {
    const close = await held.closed();
    assertEquals(close.reason, "shutdown");
    const dialled = await ForgeClient.connect(t.server.url).then(
      async (c) => {
        const first = await c.next(() => true, 5_000).then((m) => m.kind, () => "nothing");
        await c.close().catch(() => {});
        return `opened, and its first frame was ${first}`;
      },
      () => "refused",
    );
    assertEquals(dialled, "refused");
    assert(!stopped, "the shutdown was still ending its subsystems when the client dialled");
  } finally {
    stopping.resolve();
    await stop;
  }
});
