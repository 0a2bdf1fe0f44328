import { TerminalManager, type TerminalSummary } from "./manager.ts";
import { sessionMembers } from "./proc.ts";
import { testEnv, waitFor, withTempHome } from "../../tests/terminal_support.ts";

const SEAT = "acme/web/lead";

/** A manager whose shells start in a temp home, recording every onChange it makes. */
async function withManager(
  run: (
    m: TerminalManager,
    told: [string, TerminalSummary | null][],
    home: string,
  ) => Promise<void>,
): Promise<void> {
  await withTempHome(async (home) => {
    const told: [string, TerminalSummary | null][] = [];
    const manager = new TerminalManager({
      onChange: (seat, summary) => told.push([seat, summary]),
      terminal: { shell: "/bin/bash", env: testEnv(home), pollMs: 50 },
    });
    try {
      await run(manager, told, home);
    } finally {
      await manager.closeAll();
    }
  });
}

Deno.test("manager: the seat's terminal is created on first use and its id is checked (spec: terminal_view)", async () => {
  await withManager(async (m, told, home) => {
    const first = await m.open(SEAT, home);
    if (!first.ok) throw new Error(first.why);
    const again = await m.open(SEAT, home);
    const named = await m.open(SEAT, home, first.id);
    if (!again.ok || !named.ok || again.terminal !== first.terminal || named.id !== first.id) {
      throw new Error("a second open did not answer the same terminal");
    }
    const wrong = await m.open(SEAT, home, first.id + 1);
    if (
      wrong.ok ||
      wrong.why !==
        `terminal ${first.id + 1} is not seat ${SEAT}'s terminal: its terminal is ${first.id}`
    ) {
      throw new Error(`wrong id: ${JSON.stringify(wrong)}`);
    }
    const other = await m.open("acme/web/worker-1", home, first.id);
    if (other.ok || !other.why.includes("it has none open")) throw new Error("another seat's id");
    const bad = await m.open("acme/web", home);
    if (bad.ok || !bad.why.includes("is not org/project/label")) throw new Error("bad seat key");
    if (m.seatOf(first.id) !== SEAT || m.seatOf(first.id + 1) !== undefined) {
      throw new Error("seatOf");
    }
    const [seat, summary] = told[0];
    const want = {
      id: first.id,
      shell: "/bin/bash",
      cwd: home,
      cols: 80,
      rows: 24,
      alive: true,
      state: { kind: "opened", source: "spawn" },
      title: null,
      held: false,
    };
    if (seat !== SEAT || JSON.stringify(summary) !== JSON.stringify(want)) {
      throw new Error(`first summary ${JSON.stringify(summary)}`);
    }
    if (first.viewers.seat.label !== "lead") throw new Error("the viewer set's seat");
    const nowhere = await m.open("acme/web/worker-2", `${home}/missing`);
    if (nowhere.ok || !nowhere.why.includes(`cwd ${home}/missing cannot be used`)) {
      throw new Error(`a missing cwd: ${JSON.stringify(nowhere)}`);
    }
  });
});

Deno.test("manager: every real change is told once, a close tells null and the next open is a fresh shell", async () => {
  await withManager(async (m, told, home) => {
    const first = await m.open(SEAT, home);
    if (!first.ok) throw new Error(first.why);
    const kinds = () => told.map(([, s]) => s?.state.kind ?? "gone");
    first.terminal.write("sleep 30\r");
    // Wait for the state this test checks, not for the first "running": under load a sample can
    // land between bash's fork and its exec of sleep, which the tracker holds back
    // for a second sample but a slow machine may still take for a subshell.
    const isSleep = (s: TerminalSummary | null) =>
      s?.state.kind === "running" && s.state.command === "sleep";
    await waitFor("running sleep told", () => told.some(([, s]) => isSleep(s)));
    const running = told.findLast(([, s]) => isSleep(s))![1]!;
    if (running.state.source !== "foreground_pgrp" || !kinds().includes("running")) {
      throw new Error(JSON.stringify(running.state));
    }
    const count = told.length;
    m.setHeld(SEAT, true);
    m.setHeld(SEAT, true);
    if (told.length !== count + 1 || told.at(-1)![1]?.held !== true) throw new Error("held told");
    first.terminal.resize(120, 40);
    if (told.at(-1)![1]?.cols !== 120) throw new Error("resize not told");
    for (let i = 1; i < told.length; i++) {
      if (JSON.stringify(told[i]) === JSON.stringify(told[i - 1])) throw new Error("told twice");
    }
    const pid = first.terminal.pid;
    const closed = await m.close(SEAT, first.id);
    if (!closed.ok || told.at(-1)![1] !== null || m.get(SEAT) || m.summary(SEAT) !== null) {
      throw new Error("close did not tell null");
    }
    if ((await sessionMembers(pid)).length) throw new Error("close left processes behind");
    const again = await m.close(SEAT);
    if (again.ok || !again.why.includes("has no terminal open")) throw new Error("second close");
    const fresh = await m.open(SEAT, home);
    if (!fresh.ok || fresh.id === first.id || fresh.terminal.pid === pid) {
      throw new Error("the next open did not start a fresh shell");
    }
  });
});

Deno.test("manager: a shell that exited is told with its code and replaced on the next open", async () => {
  await withManager(async (m, told, home) => {
    const first = await m.open(SEAT, home);
    if (!first.ok) throw new Error(first.why);
    first.terminal.write("exit 4\r");
    await first.terminal.exited;
    const last = told.at(-1)![1]!;
    if (last.alive || last.state.kind !== "exited" || last.state.code !== 4) {
      throw new Error(`exit summary ${JSON.stringify(last)}`);
    }
    const named = await m.open(SEAT, home, first.id);
    if (!named.ok || named.terminal.alive) throw new Error("the exited terminal by id");
    const [a, b] = await Promise.all([m.open(SEAT, home), m.open(SEAT, home)]);
    if (!a.ok || !b.ok || a.terminal !== b.terminal || !a.terminal.alive || a.id === first.id) {
      throw new Error("two concurrent opens did not share one fresh shell");
    }
    const wrongClose = await m.close(SEAT, first.id);
    if (wrongClose.ok || !wrongClose.why.includes(`its terminal is ${a.id}`)) {
      throw new Error("closing a stale id was not refused");
    }
  });
});
