import { render } from "preact";
import { micStats } from "./audio/mic.ts";
import { forgeList } from "./net/forge_address.ts";
import { Forges, KEPT_KEY } from "./net/forges.ts";
import { startNotify } from "./pwa/notify_gate.ts";
import { startShell } from "./pwa/shell.ts";
import { App } from "./views/app.tsx";
import { pageStorage } from "./model/kept.ts";
import { setForges } from "./views/use.ts";

/**
 * What the web program's server tells the page: the forge it was started with (a socket URL,
 * or `/socket` on the page's own server when it relays under TLS), and this client's build.
 */
interface PageConfig {
  forge: string;
  client_build: string;
}

async function main() {
  // Marks for the first-draw bench (tools/bench/web_first_draw.ts): where the time goes.
  performance.mark("forge:script");
  const config: PageConfig = await (await fetch("/config.json")).json();
  // Repeated `?forge=` on the page's own address names this tab's forges.
  const query = new URLSearchParams(location.search);
  const list = forgeList(query, pageStorage()?.getItem(KEPT_KEY) ?? null, config.forge);
  const all = new Forges(list.urls, {
    base: location.href,
    keep: (urls) => {
      pageStorage()?.setItem(KEPT_KEY, JSON.stringify(urls));
      if (list.from !== "query") return;
      const next = new URL(location.href);
      next.searchParams.delete("forge");
      for (const url of urls) next.searchParams.append("forge", url);
      history.replaceState(history.state, "", next);
    },
  });
  setForges(all);
  const first = all.list[0];
  const w = globalThis as unknown as { forgeDebug: unknown };
  // For the browser tests and a person at the console: the socket can be dropped as a network
  // would drop it, and the first draw's time read back.
  w.forgeDebug = { client: first, forges: all, mic: micStats, dropSocket: () => first.link.drop() };
  document.addEventListener("visibilitychange", () => {
    for (const c of all.list) {
      if (document.visibilityState === "visible") c.link.probe();
      c.terminal.pause(document.visibilityState === "hidden");
    }
  });
  addEventListener("online", () => all.list.forEach((c) => c.link.redialNow()));
  all.start();
  render(<App clientBuild={config.client_build} />, document.getElementById("root")!);
  startShell();
  void startNotify(all);
}

main();
