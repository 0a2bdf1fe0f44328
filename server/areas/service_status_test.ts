// One read of the status page (fixtures/statuspage speaks Statuspage's status.json): every way
// it can go wrong is said in forge's words naming the page's host, and the fetch's or the
// parser's own words go to the log only. spec: What a subject carries > home (service_status:
// the statuspage's last answer, null for healthy or unreachable).
import { assert, assertEquals } from "../../tests/assert.ts";
import { startFakeStatusPage } from "../../fixtures/statuspage/mod.ts";
import { memoryLogger } from "../log.ts";
import { readStatusPage, StatusPoller } from "./service_status.ts";

const never = () => new AbortController().signal;

Deno.test("readStatusPage: HTTP errors, bad JSON, another shape and no server, in forge's words", async () => {
  const page = startFakeStatusPage();
  const host = new URL(page.url).host;
  try {
    page.set("minor", "Elevated errors");
    assertEquals(await readStatusPage(page.url, never()), {
      status: { severity: "minor", message: "Elevated errors" },
    });
    page.fail(503);
    assertEquals(await readStatusPage(page.url, never()), {
      status: { severity: "unreachable", message: `the status page at ${host} answered HTTP 503` },
    });
    page.raw("<html>Down for maintenance</html>");
    const html = await readStatusPage(page.url, never());
    assertEquals(html.status, {
      severity: "unreachable",
      message: `the status page at ${host} answered with something that is not JSON`,
    });
    assert(html.cause && html.cause.length > 0, "the parser's words are kept for the log");
    page.raw('{"status":{"indicator":"red","description":"?"}}');
    const shape = await readStatusPage(page.url, never());
    assertEquals(
      shape.status.message,
      `the status page at ${host} answered JSON that is not a Statuspage status.json`,
    );
    assert(shape.cause?.includes("status.indicator"), "the log names the field that was off");
  } finally {
    await page.close();
  }
  // The page is gone: nothing listens on its port any more.
  const gone = await readStatusPage(page.url, never());
  assertEquals(gone.status, {
    severity: "unreachable",
    message: `the status page at ${host} could not be reached`,
  });
  assert(gone.cause && !gone.status.message.includes(gone.cause), "the fetch's words stay out");
});

Deno.test("StatusPoller: an unreachable page is logged once with its cause; home stays null", async () => {
  const page = startFakeStatusPage();
  const log = memoryLogger();
  const pushed: unknown[] = [];
  const poller = new StatusPoller(() => page.url, (s) => pushed.push(s), log);
  try {
    page.raw("not json");
    await poller.poll();
    await poller.poll();
    assertEquals(poller.home(), null);
    const records = log.records.filter((r) => r.event === "service_status_unreachable") as {
      why?: unknown;
      cause?: unknown;
    }[];
    assertEquals(records.length, 1, "the same trouble is logged once");
    assertEquals(
      records[0].why,
      `the status page at ${new URL(page.url).host} answered with something that is not JSON`,
    );
    assert(typeof records[0].cause === "string" && records[0].cause !== "", "the cause is logged");
    assertEquals(pushed, [], "healthy and unreachable are both null on home: no news");
  } finally {
    poller.stop();
    await page.close();
  }
});
