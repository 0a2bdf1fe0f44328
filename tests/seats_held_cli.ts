import { defaultClaudeBin } from "../server/workspace/claude/process.ts";
import { type SeatWorld, until } from "./seats_harness.ts";

/**
 * The real claude CLI, held before it starts: a launcher the world's `[claude] path` names that
 * stops itself (SIGSTOP) when it is started as a seat (stream-json input) and execs the pinned
 * CLI once continued. A `claude --version` probe runs straight through. While it is held forge
 * has spawned the seat and written `initialize`, and nothing can answer it: a test acts in that
 * window and then resumes it.
 */
export interface HeldClaude {
  /** The held seat's pid, once forge has queued `initialize` for it (its log's
   * `seat_initialize_asked`: the line is written before any close's end of input) and the
   * launcher has stopped itself. */
  asked(records: Record<string, unknown>[]): Promise<number>;
  /** Continues the held launcher: it execs the real CLI, which reads what is waiting. */
  resume(pid: number): void;
}

/** Writes the launcher into the world's dir and points the world's config at it. */
export async function heldClaude(world: SeatWorld): Promise<HeldClaude> {
  const launcher = `${world.dir}/held-claude.sh`;
  const real = defaultClaudeBin().replaceAll("'", `'\\''`);
  await Deno.writeTextFile(
    launcher,
    `#!/bin/sh\ncase " $* " in *" --input-format "*) kill -STOP $$ ;; esac\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(launcher, 0o755);
  const config = await Deno.readTextFile(world.configPath);
  await Deno.writeTextFile(
    world.configPath,
    config.replace("[claude]\n", `[claude]\npath = ${JSON.stringify(launcher)}\n`),
  );
  return {
    async asked(records) {
      let pid = 0;
      await until(
        () => {
          const asked = records.find((r) => r.event === "seat_initialize_asked");
          pid = typeof asked?.pid === "number" ? asked.pid : 0;
          return pid > 0 && processState(pid) === "T";
        },
        30_000,
        "forge to ask the held CLI initialize",
      );
      return pid;
    },
    resume(pid) {
      Deno.kill(pid, "SIGCONT");
    },
  };
}

/** A process's state letter from /proc (`T` stopped, `S` sleeping, ...), "" when it is gone. */
function processState(pid: number): string {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return "";
  }
}
