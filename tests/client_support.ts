// What the spawned SDK reconnect tests share: a reconnecting client on a hand-moved clock and the
// link events it heard, a forge the test restarts on its own port under such clients, and a
// terminal's byte stream read back as text.
import { decodeTerminalOutput } from "../protocol/mod.ts";
import {
  ForgeClient,
  type Frame,
  type LinkEvent,
  type ReconnectOptions,
} from "../tools/client_lib.ts";
import { BACKOFF } from "../tools/reconnect/backoff.ts";
import { assert, assertEquals } from "./assert.ts";
import { ManualClock } from "./manual_clock.ts";
import type { RunningForge, SeatWorld } from "./seats_harness.ts";

type Reconnected = Extract<LinkEvent, { kind: "reconnected" }>;

/** How long a link event is waited for before the test fails (a restart spawns a real forge). */
const LINK_MS = 60_000;

/** A client that reconnects on its own hand-moved clock, and what its link said. */
export interface Reconnecting {
  c: ForgeClient;
  clock: ManualClock;
  /** Every link event heard, in order. */
  heard: LinkEvent[];
  /** Waits for the link's `n`th event (counting from 1). */
  link(n: number): Promise<LinkEvent>;
  /** The frames it held when forge last went down (`Restartable.restart` fills it in place). */
  readonly before: Set<Frame>;
  /** Moves its clock to its first redial and waits for the link's next event: `reconnected`. */
  redial(): Promise<Reconnected>;
}

/**
 * A client on `url` that reconnects on `clock` (each wait exactly its step: jitter's draw is the
 * middle), validating every frame; `options` sets the rest of the plan.
 */
export async function reconnecting(
  url: string,
  clock = new ManualClock(),
  options: Omit<ReconnectOptions, "clock" | "random"> = {},
): Promise<Reconnecting> {
  const c = await ForgeClient.connect(url, {
    validate: true,
    reconnect: { ...options, clock, random: () => 0.5 },
  });
  const heard: LinkEvent[] = [];
  const waiting: (() => void)[] = [];
  c.onLink((e) => {
    heard.push(e);
    waiting.splice(0).forEach((w) => w());
  });
  // Bounded only so that a test whose event never comes fails rather than hangs.
  const link = (n: number) =>
    new Promise<LinkEvent>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`link event ${n} never came: ${JSON.stringify(heard)}`)),
        LINK_MS,
      );
      const check = () => {
        if (heard.length < n) return waiting.push(check);
        clearTimeout(timer);
        resolve(heard[n - 1]);
      };
      check();
    });
  const r: Reconnecting = {
    c,
    clock,
    heard,
    link,
    before: new Set(),
    async redial() {
      const n = heard.length + 1;
      clock.advanceBy(options.minMs ?? BACKOFF.minMs);
      const back = await link(n);
      assert(back.kind === "reconnected", JSON.stringify(back));
      return back;
    },
  };
  return r;
}

/** A forge started on a seat world, restarted on its own port under the clients it connected. */
export interface Restartable {
  /** The socket's address: the same across restarts. */
  readonly url: string;
  /** The forge process running now (a new one after each restart). */
  readonly running: RunningForge;
  /** A reconnecting client of its own clock (or `clock`, shared), closed by `close`. */
  connect(clock?: ManualClock): Promise<Reconnecting>;
  /**
   * Stops forge (exit 0), waits for each client's `reconnecting`, runs `whileDown`, notes each
   * client's frames as `before`, and starts forge again on the same port (the state dir kept).
   * No client redials until the test moves its clock.
   */
  restart(whileDown?: () => unknown): Promise<void>;
  /** Closes every client, each having been sent nothing off protocol/'s schemas. */
  close(): Promise<void>;
}

/** Starts forge on `world` for a test that restarts it under reconnecting clients. */
export async function restartable(world: SeatWorld): Promise<Restartable> {
  let forge = await world.startForge();
  const clients: Reconnecting[] = [];
  return {
    get url() {
      return forge.url;
    },
    get running() {
      return forge;
    },
    async connect(clock) {
      const r = await reconnecting(forge.url, clock);
      clients.push(r);
      return r;
    },
    async restart(whileDown) {
      const down = clients.map((r) => r.heard.length + 1);
      assertEquals((await forge.stop()).code, 0);
      for (const [i, r] of clients.entries()) {
        assertEquals((await r.link(down[i])).kind, "reconnecting");
      }
      await whileDown?.();
      for (const r of clients) {
        r.before.clear();
        for (const f of r.c.frames) r.before.add(f);
      }
      forge = await world.startForge({}, forge.port);
    },
    async close() {
      for (const { c } of clients) {
        await c.close();
        assertEquals(c.schemaErrors, []);
      }
    },
  };
}

/** Takes `project`, the last one declared, out of the world's config: a restart will not know it. */
export async function undeclare(world: SeatWorld, project: string): Promise<void> {
  const config = await Deno.readTextFile(world.configPath);
  const at = config.indexOf(`[[orgs.projects]]\nname = "${project}"`);
  assert(at > 0, `the config declares ${project}`);
  await Deno.writeTextFile(world.configPath, config.slice(0, at));
}

/** Everything a client was sent of terminal `id`'s byte stream after `before`, as text. */
export function output(c: ForgeClient, id: number, before: Set<Frame>): string {
  return c.frames.flatMap((f) => {
    if (before.has(f) || f.type !== "binary" || f.kind !== 4) return [];
    const d = decodeTerminalOutput(f.bytes);
    return d.ok && d.frame.id === id ? [new TextDecoder().decode(d.frame.bytes)] : [];
  }).join("");
}
