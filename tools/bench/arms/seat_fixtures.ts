import { readPort } from "../../../tests/seats_harness.ts";
import type { ClientMessage } from "../../../protocol/mod.ts";
import type { ForgeClient } from "../../client_lib.ts";
import { SERVER_V8_FLAGS } from "../../permissions.ts";

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;

/** fold_cost's fixtures: the seat's repository, the prompt and frame helpers, the CLI's version. */
const seat = { org: "Bench", project: "long", label: "lead" };

/** A repository of 40 committed files on a branch off main, 5 of them modified, 1 untracked. */
export async function seatRepo(path: string) {
  const run = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.name=bench", "-c", "user.email=bench@forge.invalid", ...args],
      cwd: path,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
  };
  await Deno.mkdir(`${path}/src`, { recursive: true });
  await run("init", "-q", "-b", "main");
  const body = (i: number) => Array.from({ length: 60 }, (_, n) => `line ${n} of ${i}\n`).join("");
  for (let i = 0; i < 40; i++) await Deno.writeTextFile(`${path}/src/f${i}.ts`, body(i));
  await run("add", "-A");
  await run("commit", "-q", "-m", "base");
  await run("checkout", "-q", "-b", "feature");
  for (let i = 0; i < 5; i++) await Deno.writeTextFile(`${path}/src/f${i}.ts`, body(i) + "more\n");
  await Deno.writeTextFile(`${path}/notes.md`, "# notes\n");
}

export function isChat(m: Record<string, unknown>, type: string): boolean {
  const u = m.update as { chat_appended?: { msg?: { type?: string } } } | undefined;
  return u?.chat_appended?.msg?.type === type;
}

export function prompt(text: string): Extract<ClientMessage, { kind: "command" }> {
  return { kind: "command", command: { prompt: { key: seat, text, attachments: [] } } };
}

/**
 * `deno` arguments that run forge as its own process on `config`, on a free port, under the V8
 * flags its launcher gives it (tools/permissions.ts) unless `v8` names others (null: none);
 * `extra` runtime flags come after them (a V8 flag given again wins).
 */
export function forgeArgs(
  config: string,
  opts: { v8?: string | null; extra?: string[] } = {},
): string[] {
  const v8 = opts.v8 === undefined ? SERVER_V8_FLAGS : opts.v8;
  return [
    "run",
    "-A",
    ...(v8 === null ? [] : [`--v8-flags=${v8}`]),
    ...(opts.extra ?? []),
    MAIN,
    "--config",
    config,
    "--port",
    "0",
  ];
}

/** A CLI frame's kind as the latency arms name it: its type, and its subtype when it has one. */
export function frameKind(frame: { type?: unknown; subtype?: unknown }): string {
  return [frame.type, frame.subtype].filter((x) => x !== undefined).join("/");
}

/** Each stamped frame's time since its line was read, by uuid (frames read before the arm:
 * skipped). */
export function sinceRead(
  readAt: Map<string, number>,
  stamps: Iterable<[uuid: string, at: number]>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [uuid, at] of stamps) {
    const read = readAt.get(uuid);
    if (read !== undefined) out.set(uuid, at - read);
  }
  return out;
}

/** The port forge prints on its `LISTENING host:port` line (the rest of stdout is drained). */
export function listening(stdout: ReadableStream<Uint8Array>): Promise<number> {
  return readPort(stdout, /LISTENING \S+:(\d+)/);
}

export async function cliVersion(): Promise<string> {
  const bin = Deno.env.get("FORGE_CLAUDE_BIN") ?? "claude";
  const out = await new Deno.Command(bin, { args: ["--version"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** Lets the server finish what the last request started (a ping answers after it). */
export async function settle(c: ForgeClient) {
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
}
