import { render } from "preact";
import { micStats } from "./audio/mic.ts";
import { ForgeClient } from "./net/client.ts";
import { App } from "./views/app.tsx";
import { setClient } from "./views/use.ts";

/** What the web program's server tells the page: where forge is, and this client's build. */
interface PageConfig {
  forge: string;
  client_build: string;
}

async function main() {
  // Marks for the first-draw bench (tools/bench/web_first_draw.ts): where the time goes.
  performance.mark("forge:script");
  const config: PageConfig = await (await fetch("/config.json")).json();
  // A `?forge=` on the page's own address points one tab at another server.
  const query = new URLSearchParams(location.search);
  const client = new ForgeClient(query.get("forge") ?? config.forge);
  // `?validate=1`: every frame is checked against protocol/'s schemas (the browser tests).
  client.validate = query.get("validate") === "1";
  setClient(client);
  const w = globalThis as unknown as { forgeDebug: unknown };
  // For the browser tests and a person at the console: the socket can be dropped as a network
  // would drop it, and the first draw's time read back.
  w.forgeDebug = { client, mic: micStats, dropSocket: () => client.link.drop() };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") client.link.probe();
    client.terminal.pause(document.visibilityState === "hidden");
  });
  client.start();
  render(
    <App clientBuild={config.client_build} />,
    document.getElementById("root")!,
  );
}

main();
