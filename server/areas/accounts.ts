import type { Slot } from "../../protocol/mod.ts";
import { fieldsArea, type Host } from "../subsystem.ts";

/**
 * The account pool's per-seat field: a session snapshot's `account` - the forge account the
 * seat's requests go out under, what the CLI said of its own auth at `initialize`, and a
 * `config_dir` login's facts (never its tokens). spec: session subject; the original forge's
 * `status_snapshot` and `forge_account_identity` updates. The pool itself is home's (areas/home.ts)
 * and lives in server/gateway/.
 */
export const accountsArea = fieldsArea(
  "accounts",
  "which account each seat runs under",
  (host: Host) => ({
    sessionFields: async (slot: Slot) => ({
      account: (await host.workspace.gateway?.seatAccount(slot)) ?? null,
    }),
  }),
);
