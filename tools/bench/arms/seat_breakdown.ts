import { sessionSnapshot } from "../../../server/areas/session.ts";
import type { RunningServer } from "../../../server/server.ts";
import type { Seat } from "../../../server/workspace/seats/mod.ts";
import { FrameWindow } from "../../../server/workspace/seats/window.ts";
import type { ForgeClient } from "../../client_lib.ts";
import { isChat, prompt } from "./seat_fixtures.ts";

const seat = { org: "Bench", project: "long", label: "lead" };

/** Where a subscribe's server time goes, in this process: the seat's page built cold (a fresh
 * window holding the same frames) and warm (the cached page), the other subsystems' fields, and
 * encoding the whole snapshot. */
export async function breakdown(server: RunningServer, driver: ForgeClient, turns: number) {
  for (let i = 0; i < turns; i++) {
    driver.send(prompt(`[[script:turn]] again ${i}`));
    await driver.next((m) => isChat(m, "result"), 60_000);
  }
  const held = server.workspace.seat(seat) as Seat;
  const N = 20;
  const copies = Array.from({ length: N }, () => {
    const w = new FrameWindow();
    for (const e of held.window.entries()) if (e.seq !== null) w.push(e.seq, e.update, e.bytes);
    return w;
  });
  const time = async (fn: (i: number) => unknown) => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await fn(i);
    return ((performance.now() - t0) / N).toFixed(2);
  };
  const cold = await time((i) => copies[i].page(null));
  const warm = await time(() => held.sessionFields());
  const others = await time(() => server.registry.sessionFields(seat, { review: false }));
  // The two parts of the server's Host a session snapshot reads.
  const host = { workspace: server.workspace, config: () => server.config.config };
  const snapshot = await sessionSnapshot(
    host as unknown as Parameters<typeof sessionSnapshot>[0],
    server.registry,
    seat,
    { review: false },
  );
  const encode = await time(() => JSON.stringify({ kind: "snapshot", data: snapshot }));
  console.log(
    `subscribe, in process (${held.window.entries().length} frames held, ` +
      `${
        (JSON.stringify(snapshot).length / 1024).toFixed(0)
      } KiB snapshot): page cold ${cold} ms, ` +
      `seat fields warm ${warm} ms, other subsystems' fields ${others} ms, encode ${encode} ms`,
  );
}
