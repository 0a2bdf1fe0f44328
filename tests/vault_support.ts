import { startFakeVault } from "../fixtures/vault_server/mod.ts";
import { decodeCommand, type SessionUpdate, type Slot, type Wire } from "../protocol/mod.ts";
import type { ForgeConfig } from "../server/config/types.ts";
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import type { Host, Peer, ToolCall } from "../server/subsystem.ts";
import { create } from "../subsystems/vault/mod.ts";
import { fakePeer } from "./fake_peer.ts";
import { HeldAskRegistry } from "../server/workspace/seats/held.ts";
import type { SeatInfo, Workspace } from "../server/workspace/workspace.ts";

// A Host for the vault's subsystem-tier tests: the server's own held-ask registry (park emits
// `*_pending`, an answer runs the call and then emits `*_resolved`, restamp re-pushes), an update
// list, and a memory log.

export function fakeHost(vault: Record<string, Wire>, stateDir: string) {
  const updates: SessionUpdate[] = [];
  const log = memoryLogger();
  // A test may look at the world the moment an update goes out (what landed before it).
  let seen: (u: SessionUpdate) => unknown = () => {};
  const record = (u: SessionUpdate) => {
    seen(u);
    updates.push(u);
  };
  const asks = new HeldAskRegistry(record);
  // The updates emitted for answering connections alone (Host.emit's `"answering"`).
  const answeringOnly = new Set<SessionUpdate>();
  const config = { areas: { vault: { enabled: true, idle_lock_minutes: 15, ...vault } } };
  const host: Host = {
    log,
    config: () => config as unknown as ForgeConfig,
    stateDir,
    state: new StateKeeper(log),
    workspace: {} as unknown as Workspace,
    emit: (u, to) => {
      if (to === "answering") answeringOnly.add(u);
      record(u);
    },
    asks,
    deliver: () => Promise.reject(new Error("no deliveries here")),
    toolsChanged: () => {},
  };
  const onEmit = (fn: (u: SessionUpdate) => unknown) => void (seen = fn);
  return { host, updates, answeringOnly, log, asks, config, onEmit };
}

export const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };
export const OTHER: Slot = { org: "Acme", project: "proj", label: "w1" };

export function toolCall(slot: Slot = SLOT, signal = new AbortController().signal): ToolCall {
  return {
    seat: { slot, cwd: "/tmp", sessionId: () => null } as unknown as SeatInfo,
    role: "lead",
    toolUseId: null,
    signal,
  };
}

/**
 * The vault subsystem over the fake vault server, with helpers that call its tools and answer
 * its cards as the dispatcher would (decoded by the command's schema, then handled).
 */
export async function setup(opts: { tokenTtl?: number; kdf?: "pbkdf2" | "argon2id" } = {}) {
  const vault = await startFakeVault({ iterations: 5000, tokenTtl: opts.tokenTtl, kdf: opts.kdf });
  const dir = await Deno.makeTempDir({ prefix: "forge-vault-" });
  const h = fakeHost({ server_url: vault.url, email: vault.state.email }, dir);
  const sub = create(h.host);
  const respond = (id: string, answer: Wire, slot: Slot = SLOT, answering = true) =>
    Promise.resolve().then(() =>
      sub.commands.respond_vault_ask(
        decodeCommand({ respond_vault_ask: { key: slot, id, answer } }) as never,
        fakePeer(answering),
      )
    );
  const unlockWith = async () => ({
    approve: { unlock: { password: vault.state.password, code: await vault.totpNow() } },
  });
  const call = (tool: string, input: unknown, slot: Slot = SLOT) =>
    sub.tools[tool](input, toolCall(slot));
  // respond and cmd call a command as the dispatcher does: decoded by its schema, then handled.
  const cmd = (name: string, fields: unknown, answering = true) =>
    Promise.resolve().then(() =>
      (sub.commands as unknown as Record<string, (c: unknown, p: Peer) => unknown>)[name](
        decodeCommand(fields === null ? name : { [name]: fields }),
        fakePeer(answering),
      )
    );
  const lastId = () => h.asks.list(SLOT).map((a) => a.id).at(-1)!;
  const pending = () => h.updates.filter((u) => u.name === "vault_ask_pending");
  return {
    vault,
    ...h,
    sub,
    respond,
    unlockWith,
    call,
    cmd,
    lastId,
    pending,
    async [Symbol.asyncDispose]() {
      await sub.stop();
      await vault.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
