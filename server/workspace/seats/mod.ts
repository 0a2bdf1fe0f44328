/**
 * Seats: the `claude` sessions forge supervises. `SeatManager` owns them; a `Seat` is
 * one `<org>/<project>/<label>` and its occupant; the socket reaches them through the core area
 * in `server/areas/seats.ts`. The low-level CLI driver is `../claude/`.
 */
export type { SeatEnv, Watchers } from "./env.ts";
export { cliMode, type LaunchPlan, planLaunch } from "./launch.ts";
export { SeatManager, type SeatManagerOptions, WALK_INTERVAL_MS } from "./manager.ts";
export { type Lifecycle, Seat } from "./seat.ts";
