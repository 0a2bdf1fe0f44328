/**
 * The terminal bench's third arm: a bare relay, the least any server could do to get a PTY's
 * bytes to N socket viewers on this machine. It is its own process, as forge is: a bash in
 * node-pty, its reads gathered by forge's own ReadCoalescer (so the arm differs from forge by
 * everything else: the protocol, sequence numbers, the screen model, npm `ws`), each chunk sent
 * as it is to every viewer over `Deno.serve`'s native WebSocket. A text message from a viewer is
 * typed into the PTY. Its viewers decode nothing (the bytes are the message) and are checked as
 * the other arms' readers are.
 *
 *   relay:  deno run -A tools/bench/support/terminal_bare.ts CWD   (prints "LISTENING <port>")
 */
import pty from "@lydell/node-pty";
import { ReadCoalescer } from "../../../subsystems/terminal/coalesce.ts";
import { type ArmResult, ready, StreamCheck, viewersBurst } from "./terminal_arms.ts";

function relay(cwd: string): void {
  const shell = pty.spawn("/bin/bash", [], {
    name: "xterm-256color",
    cols: 80,
    rows: 24,
    cwd,
    env: { ...Deno.env.toObject(), PS1: "$ ", HISTFILE: "/dev/null" },
    encoding: null,
  } as unknown as pty.IPtyForkOptions);
  const sockets = new Set<WebSocket>();
  const chunks = new ReadCoalescer((bytes) => {
    for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.send(bytes);
  });
  shell.onData((d) => chunks.read(d as unknown as Uint8Array));
  // An exit rather than the signal's default, so a `--cpu-prof` profile is written.
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
  Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(`LISTENING ${port}`),
  }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => sockets.add(socket);
    socket.onclose = () => sockets.delete(socket);
    socket.onmessage = (e) => typeof e.data === "string" && shell.write(e.data);
    return response;
  });
}

/**
 * The bare relay as its own process with `viewers` socket viewers in this one; `denoFlags` go to
 * its `deno run` (a CPU profile, as forge's arm takes `--forge-flags`).
 */
export async function bareRelay(cwd: string, viewers: number, denoFlags: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...denoFlags, new URL(import.meta.url).pathname, cwd],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!/LISTENING (\d+)/.test(said)) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the bare relay ended before listening: ${said}`);
    said += value;
  }
  const url = `ws://127.0.0.1:${said.match(/LISTENING (\d+)/)![1]}/`;
  const checks = Array.from({ length: viewers }, () => new StreamCheck());
  const sockets = await Promise.all(
    checks.map((check) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.binaryType = "arraybuffer";
        ws.onopen = () => resolve(ws);
        ws.onerror = () => reject(new Error("a bare relay viewer could not connect"));
        ws.onmessage = (e) => check.feed(new Uint8Array(e.data as ArrayBuffer), undefined, true);
      })
    ),
  );
  const type = (s: string) => sockets[0].send(s);
  await ready(checks[0], type);
  return {
    pid: child.pid,
    burst(file: string, expected: Uint8Array): Promise<ArmResult> {
      return viewersBurst({ pid: child.pid, checks, type, file, expected });
    },
    async close(): Promise<void> {
      for (const s of sockets) s.close();
      child.kill("SIGTERM");
      await child.status;
      await lines.cancel().catch(() => {});
    },
  };
}

if (import.meta.main) relay(Deno.args[0]);
