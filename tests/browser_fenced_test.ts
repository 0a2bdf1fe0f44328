// Spawned tier: forge started through its launcher with the file fence up (`[terminal] enabled =
// false`) and the browser on, on a REAL Chromium. The launcher names one Chromium, no setsid
// trampoline and no shared /tmp, and under exactly those flags a host starts, opens a page and
// draws it. spec: browser_view, browser_tabs; binary kind 1.
import { assert, assertEquals } from "./assert.ts";
import { browserConfig, nextBrowserFrame, pageServer, SEAT } from "./browser_harness.ts";
import { spawnForge } from "./spawned.ts";

type Tabs = { up: boolean; rows: { number: number; url: string; title: string }[] };

Deno.test("under the launcher's file fence the browser starts its one Chromium and draws a page", async () => {
  const project = await Deno.makeTempDir();
  await using page = pageServer();
  try {
    await using forge = await spawnForge(
      browserConfig(project, "enabled = true\n[terminal]\nenabled = false"),
      { FORGE_PRINT_PERMISSIONS: "1" },
    );
    const printed = /forge: deno run (.*) main\.ts/.exec(forge.stderr())?.[1] ?? "";
    const flag = (name: string) =>
      printed.split(" ").find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1)
        .split(",") ?? [];
    const run = flag("--allow-run");
    assertEquals(run.filter((r) => r.endsWith("/chromium")).length, 1, printed);
    assert(!run.includes("setsid"), printed);
    assert(!flag("--allow-read").includes("/tmp") && !flag("--allow-write").includes("/tmp"));

    const c = await forge.connect();
    c.send({ kind: "browser_view", seat: SEAT, tab: 1, reply_to: 1 });
    const reply = await c.next((m) => m.kind === "reply" && m.reply_to === 1, 60_000);
    assertEquals(reply.body, { ok: true, profile: "Acme/default", tab: 1 });
    // browser_tabs subscribes this connection to the tab rows, as a tab strip does.
    c.send({ kind: "browser_tabs", seat: SEAT, reply_to: 2 });
    await c.next((m) => m.kind === "reply" && m.reply_to === 2, 30_000);
    const url = `${page.url}/form`;
    c.send({ kind: "command", command: { open_url: { url } } });
    await c.next((m) =>
      m.kind === "browser_tabs" &&
      (m as unknown as Tabs).rows.some((r) => r.url === url && r.title === "form page"), 30_000);
    const frame = await nextBrowserFrame(c);
    assert(frame !== undefined);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
});
