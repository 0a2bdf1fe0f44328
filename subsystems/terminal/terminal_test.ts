import { type OutputChunk, ShellTerminal } from "./terminal.ts";
import { readStat, sessionMembers, useProcSource } from "./proc.ts";
import type { TerminalState } from "./state.ts";
import { decodeTerminalOutput } from "../../protocol/terminal_frames.ts";
import { testEnv, text, visibleText, waitFor, withTempHome } from "../../tests/terminal_support.ts";

/** Opens a bash in `home`, collecting its output as text. */
function open(home: string, cols = 80, rows = 24) {
  const term = new ShellTerminal({
    id: 1,
    cwd: home,
    cols,
    rows,
    shell: "/bin/bash",
    env: testEnv(home),
    pollMs: 50,
  });
  const chunks: OutputChunk[] = [];
  term.onOutput((chunk) => chunks.push(chunk));
  const output = () => chunks.map((c) => text(c.bytes)).join("");
  return { term, chunks, output };
}

Deno.test("terminal: output is numbered from 1 without gaps and the repaint draws it", async () => {
  await withTempHome(async (home) => {
    const { term, chunks, output } = open(home);
    try {
      // $((6*7)) makes the awaited text the command's output, not the echo of its typing.
      term.write("echo hello-$((6*7)); pwd\r");
      await waitFor("the echo's output", () => output().includes("hello-42"));
      chunks.forEach((chunk, i) => {
        if (chunk.seq !== i + 1) throw new Error(`chunk ${i} has seq ${chunk.seq}`);
        // Each chunk's kind-4 frame is built around its bytes and says its id and seq.
        const frame = decodeTerminalOutput(chunk.frame);
        if (!frame.ok || frame.frame.id !== 1 || frame.frame.seq !== chunk.seq) {
          throw new Error(`chunk ${i}'s frame: ${JSON.stringify(frame.ok ? frame.frame : frame)}`);
        }
        if (text(frame.frame.bytes) !== text(chunk.bytes)) throw new Error(`chunk ${i}'s bytes`);
      });
      const shot = await waitFor("the model to catch up", () => {
        const s = term.screen();
        return s.seq === term.seq && s;
      });
      const drawn = await visibleText(shot.screen, shot.cols, shot.rows);
      if (!drawn.lines.some((l) => l === "hello-42")) throw new Error(drawn.lines.join("\n"));
      if (!drawn.lines.some((l) => l === home)) throw new Error(`cwd not ${home}`);
    } finally {
      await term.close();
    }
  });
});

Deno.test("terminal: resize reaches the PTY and the model (spec: terminal_resize)", async () => {
  await withTempHome(async (home) => {
    const { term, output } = open(home);
    try {
      term.resize(100, 30);
      term.write("stty size\r");
      await waitFor("stty to print the new size", () => output().includes("30 100"));
      const shot = term.screen();
      if (shot.cols !== 100 || shot.rows !== 30) throw new Error(`model ${shot.cols}x${shot.rows}`);
      let threw = false;
      try {
        term.resize(0, 10);
      } catch (e) {
        threw = e instanceof RangeError && e.message.includes("terminal 1");
      }
      if (!threw) throw new Error("a 0-column resize was accepted");
    } finally {
      await term.close();
    }
  });
});

Deno.test("terminal: state follows a command, a hidden read, the prompt and the exit code", async () => {
  await withTempHome(async (home) => {
    const { term } = open(home);
    // A call, so the compiler does not narrow one read of the getter into the next.
    const state = (): TerminalState => term.state;
    const kinds: string[] = [];
    term.onChange(() => kinds.push(`${state().kind}/${state().source}`));
    try {
      if (state().kind !== "opened") throw new Error(`first state ${state().kind}`);
      term.write("sleep 30\r");
      await waitFor("running sleep", () => state().kind === "running");
      if (state().source !== "foreground_pgrp" || state().command !== "sleep") {
        throw new Error(JSON.stringify(state()));
      }
      term.write("\x03");
      await waitFor("idle after ^C", () => state().kind === "idle");
      term.write("read -s secret\r");
      await waitFor("a password wanted", () => state().kind === "password");
      if (state().source !== "termios") throw new Error(JSON.stringify(state()));
      term.write("hunter2\r");
      await waitFor("idle after the read", () => state().kind === "idle");
      term.write("printf '\\033]0;forge-title\\007'\r");
      await waitFor("the OSC 0 title", () => term.title === "forge-title");
      term.write("exit 3\r");
      const ended = await term.exited;
      if (ended.code !== 3) throw new Error(`exit code ${ended.code}`);
      if (state().kind !== "exited" || state().code !== 3 || term.alive) {
        throw new Error(JSON.stringify(state()));
      }
    } finally {
      await term.close();
    }
    const seen = kinds.join(" ");
    for (const want of ["running/foreground_pgrp", "password/termios", "exited/pty_exit"]) {
      if (!seen.includes(want)) throw new Error(`never saw ${want}: ${seen}`);
    }
    if (!seen.endsWith("closed/close")) throw new Error(`last change not closed: ${seen}`);
  });
});

Deno.test("terminal: close kills the whole session, background and nohup jobs included", async () => {
  await withTempHome(async (home) => {
    const { term, output } = open(home);
    const sid = term.pid;
    let pids: number[] = [];
    try {
      term.write("sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & echo jobs-$((1+1))\r");
      await waitFor("both jobs started", () => output().includes("jobs-2"));
      term.write("sleep 1003\r");
      pids = await waitFor("three sleeps in the session", async () => {
        const sleeps = (await sessionMembers(sid)).filter((m) => m.comm === "sleep");
        return sleeps.length === 3 && sleeps.map((m) => m.pid);
      });
    } finally {
      await term.close();
    }
    for (const pid of [sid, ...pids]) {
      const stat = await readStat(pid);
      if (stat && stat.state !== "Z") throw new Error(`pid ${pid} (${stat.comm}) survived close`);
    }
    const left = await sessionMembers(sid);
    if (left.length) throw new Error(`left behind: ${JSON.stringify(left)}`);
    if (term.state.kind !== "closed") throw new Error(`state ${term.state.kind}`);
  });
});

// Deno refuses /proc without --allow-all, so the launcher's scoped server reads `ps`: the same
// close must leave nothing behind through that path.
Deno.test("terminal: through ps (no /proc), close still leaves nothing behind", async () => {
  useProcSource("ps");
  try {
    await withTempHome(async (home) => {
      const { term, output } = open(home);
      term.write("sleep 1004 & echo bg-$((2+2))\r");
      await waitFor("the job started", () => output().includes("bg-4"));
      const sleeps = await waitFor(
        "the sleep in the session",
        async () => (await sessionMembers(term.pid)).filter((m) => m.comm === "sleep").length === 1,
      );
      if (!sleeps) throw new Error("no sleep seen through ps");
      await term.close();
      const left = await sessionMembers(term.pid);
      if (left.length) throw new Error(`left behind: ${JSON.stringify(left)}`);
    });
  } finally {
    useProcSource("proc");
  }
});
