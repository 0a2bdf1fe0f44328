// Socket tier: home's service_status follows a status page (fixtures/statuspage, Statuspage's
// own status.json) through an outage, an unreachable spell and back. The poll's timer is
// injected: the test ticks it and waits for the frame. spec: What a subject carries > home
// (service_status: the statuspage's last answer, null for healthy or unreachable); What a client
// receives > update (the service status arrives through the keyless arm).
import { startFakeStatusPage } from "../fixtures/statuspage/mod.ts";
import type { StatusSchedule } from "../server/areas/service_status.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";
import { updateOf } from "./seats_harness.ts";

async function home(c: ForgeClient): Promise<unknown> {
  c.send({ kind: "subscribe", what: "home" });
  const data = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data;
  return (data as { service_status: unknown }).service_status;
}

async function pushed(c: ForgeClient): Promise<unknown> {
  return updateOf(await c.next((m) => !!updateOf(m, "service_status")), "service_status");
}

Deno.test("service_status follows the status page through an outage and back", async () => {
  const page = startFakeStatusPage();
  let tick: () => Promise<void> = () => Promise.reject(new Error("the poll never started"));
  const schedule: StatusSchedule = (run) => {
    tick = run;
    return { stop: () => {} };
  };
  try {
    await using t = await testServer(`[server]\nstatus_url = "${page.url}"\n`, {
      statusSchedule: schedule,
    });
    const c = await t.ready();
    await tick();
    assertEquals(await home(c), null, "healthy is null");

    page.set("major", "Elevated errors on the API");
    await tick();
    assertEquals(await pushed(c), { severity: "major", message: "Elevated errors on the API" });
    assertEquals(await home(c), { severity: "major", message: "Elevated errors on the API" });

    page.fail(503);
    await tick();
    assertEquals(await pushed(c), {
      severity: "unreachable",
      message: `the status page at ${new URL(page.url).host} answered HTTP 503`,
    });
    assertEquals(await home(c), null, "unreachable is null");

    page.set("minor", "Elevated errors on the API");
    await tick();
    await tick(); // the same answer again is no news
    page.set("none", "All Systems Operational");
    await tick();
    assertEquals(await pushed(c), { severity: "minor", message: "Elevated errors on the API" });
    assertEquals(await pushed(c), { severity: "none", message: "All Systems Operational" });
    assertEquals(await home(c), null, "and back");
    assertEquals(page.reads(), 6);
  } finally {
    await page.close();
  }
});

Deno.test("an empty status_url reads no status page", async () => {
  let tick: () => Promise<void> = () => Promise.reject(new Error("the poll never started"));
  // The server runs in this process: every fetch it makes during the tick is seen here.
  const fetched: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  };
  try {
    await using t = await testServer(`[server]\nstatus_url = ""\n`, {
      statusSchedule: (run) => {
        tick = run;
        return { stop: () => {} };
      },
    });
    assertEquals(t.server.config.config.server.status_url, "", "empty, not the default");
    await tick();
    assertEquals(fetched, [], "the poll ran and read nothing");
    assertEquals(await home(await t.ready()), null);
    assertEquals(t.log.records.filter((r) => r.event.startsWith("service_status")), []);
  } finally {
    globalThis.fetch = realFetch;
  }
});
