import { type FakeGotify, startFakeGotify } from "../fixtures/gotify/mod.ts";
import { type FakeSlack, startFakeSlack } from "../fixtures/slack/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { untilResult } from "./mcp_harness.ts";
import { chatOf, type SeatWorld, seatWorld } from "./seats_harness.ts";
export { nextUpdate } from "./seats_harness.ts";

/** The connectors' tests' fake API script (fixtures/connectors/script.json). */
export const CONNECTORS_SCRIPT = new URL("../fixtures/connectors/script.json", import.meta.url)
  .pathname;

type Msg = Record<string, unknown>;

export interface ConnectorWorld extends AsyncDisposable {
  world: SeatWorld;
  gotify: FakeGotify;
  slack: FakeSlack;
}

/**
 * A seat world (one project, `alpha`) whose forge.toml names a fake Gotify server and one Slack
 * workspace `acme` on a fake Web API, each running as its own process. `gotify: false` leaves
 * `[gotify]` out of the config (the fake still runs, unreferenced).
 */
export async function connectorWorld(opts: { gotify?: boolean } = {}): Promise<ConnectorWorld> {
  const world = await seatWorld([{ name: "alpha" }], CONNECTORS_SCRIPT);
  const gotify = await startFakeGotify(world.dir);
  const slack = await startFakeSlack();
  const extra = (opts.gotify ?? true)
    ? `\n[gotify]\nurl = "${gotify.url}"\nclient_token = "${gotify.clientToken}"\n`
    : "";
  await Deno.writeTextFile(
    world.configPath,
    `${extra}\n[[slack]]\nworkspace = "acme"\ntoken = "${slack.token}"\npoll_seconds = 1\n` +
      `api_url = "${slack.apiUrl}"\n`,
    { append: true },
  );
  return {
    world,
    gotify,
    slack,
    async [Symbol.asyncDispose]() {
      await world.dispose();
      await gotify.stop();
      await slack.stop();
    },
  };
}

/** The next forged user turn with `source` on the socket, and the frames of its turn. */
export async function nextDelivery(
  c: ForgeClient,
  source: string,
): Promise<{ text: string; frames: Msg[] }> {
  const frames: Msg[] = [];
  const forged = await c.next((m) => {
    frames.push(m);
    const f = chatOf(m);
    return f?.type === "user" && f.source === source;
  }, 60_000);
  const text = textOf(chatOf(forged)!);
  frames.push(...await untilResult(c));
  return { text, frames };
}

/**
 * The next `n` forged user turns with `source`, in order, then the end of the turn that carried
 * the last. Deliveries close together may share one CLI turn, so they are counted, not paired
 * with results.
 */
export async function nextDeliveries(c: ForgeClient, source: string, n: number): Promise<string[]> {
  const texts: string[] = [];
  while (texts.length < n) {
    const forged = await c.next((m) => {
      const f = chatOf(m);
      return f?.type === "user" && f.source === source;
    }, 60_000);
    texts.push(textOf(chatOf(forged)!));
  }
  await untilResult(c);
  return texts;
}

function textOf(frame: Msg): string {
  const content = (frame.message as { content: unknown }).content;
  return typeof content === "string"
    ? content
    : (content as { text?: string }[]).map((b) => b.text ?? "").join("");
}

/** A fresh read of the home subject's `connectors`. */
export async function homeConnectors(c: ForgeClient): Promise<Msg> {
  c.send({ kind: "subscribe", what: "home" });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  c.send({ kind: "unsubscribe", what: "home" });
  return (snap.data as { connectors: Msg }).connectors;
}
