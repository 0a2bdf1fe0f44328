/**
 * fold_cost's bare latency arm, paired with each forge latency arm: the same real CLI, fake API
 * and scripted turns with no forge. A relay in this process (where forge's server runs in the
 * forge arms) reads the CLI's stdout lines and sends each line that forge would send as a single
 * frame, as it was read, to N WebSocket clients on `Deno.serve` in the same client workers. Token
 * appends are not sent at all (forge sends them folded), so the arm is a floor: what a CLI line
 * costs to reach N clients on this machine before any server does anything with it.
 */
import { buildArgv } from "../../../server/workspace/claude/argv.ts";
import { spawnOfflineCli } from "../../../tests/claude_support.ts";
import { appendKind } from "../../../server/workspace/stream_fold.ts";
import { frameKind, sinceRead } from "./seat_fixtures.ts";

/** A CLI against `apiUrl` in `dir`/long behind a bare relay; `readAt` is stamped by the caller's
 * hook on the CLI's line reader, as in the forge arms; `frameType` learns each relayed frame's
 * CLI type (and subtype), to name the late ones. */
export async function bareRelay(
  apiUrl: string,
  dir: string,
  readAt: Map<string, number>,
  frameType: Map<string, string>,
) {
  const root = `${dir}/bare`;
  const [home, configDir, tmpDir] = ["home", "config", "tmp"].map((d) => `${root}/${d}`);
  for (const d of [home, configDir, tmpDir]) await Deno.mkdir(d, { recursive: true });
  const world = { home, configDir, tmpDir, cwd: `${dir}/long` };
  const cli = spawnOfflineCli(world, apiUrl, {
    args: [...buildArgv({ model: "claude-sonnet-4-5" }), "--include-partial-messages"],
  });
  const sockets = new Set<WebSocket>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => sockets.add(socket);
    socket.onclose = () => sockets.delete(socket);
    return response;
  });
  /** When the relay had handed each frame to every socket: its share. Not the forge arm's
   * measure exactly: Deno's `send()` queues the frame for its Rust side, which writes it after,
   * while forge's share ends when its 50 writes have been made. */
  const handedAt = new Map<string, number>();
  let turnEnded = () => {};
  const relayed = (async () => {
    for await (const ev of cli.events()) {
      if (ev.kind !== "frame" || appendKind(ev.frame) !== null) continue;
      const text = JSON.stringify(ev.frame);
      for (const s of sockets) s.send(text);
      // Stamped and named after the sends, so neither is in the time the arm measures.
      if (typeof ev.frame.uuid === "string") {
        handedAt.set(ev.frame.uuid, performance.timeOrigin + performance.now());
        frameType.set(ev.frame.uuid, frameKind(ev.frame));
      }
      if (ev.frame.type === "result") turnEnded();
    }
  })();
  return {
    url: `ws://127.0.0.1:${server.addr.port}/`,
    /** Runs `turns` scripted turns; answers each single frame's latency at every client, by
     * the frame's uuid, and the relay's own share of each (read to handed to every socket). */
    async turns(turns: number, samples: () => Promise<[string, number, number][]>) {
      readAt.clear();
      handedAt.clear();
      for (let i = 0; i < turns; i++) {
        const ended = new Promise<void>((resolve) => turnEnded = resolve);
        cli.sendUserMessage(`[[script:stream]] latency ${i}`);
        await ended;
      }
      await new Promise((r) => setTimeout(r, 100));
      const perFrame = new Map<string, number[]>();
      for (const [uuid, at] of await samples()) {
        const read = readAt.get(uuid);
        if (read === undefined) continue;
        const xs = perFrame.get(uuid) ?? [];
        xs.push(at - read);
        perFrame.set(uuid, xs);
      }
      return { perFrame, handed: sinceRead(readAt, handedAt) };
    },
    async close() {
      await cli.close();
      await relayed;
      await server.shutdown();
    },
  };
}
