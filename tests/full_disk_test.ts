// A full disk (docs/state.md): forge.toml and the state dir on a small
// tmpfs this test mounts (the tests run as root) and fills. Each write is refused in forge's
// words - a settings save answers `io`, a board change and a worker spawn are refused - nothing
// is torn (the files parse and hold what they held, no temp file is left), the server serves on,
// and the same writes go through once space is freed.
import { decodeUpdate, fieldsOf } from "../protocol/mod.ts";
import { memoryLogger } from "../server/log.ts";
import { startServer } from "../server/server.ts";
import { TEMP_SUFFIX } from "../server/state/keeper.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask } from "./harness.ts";

const CONFIG = (project: string) => `
[server]
bind = "127.0.0.1"

[[accounts]]
display_name = "Fake"
provider = "anthropic"
token = "sk-full-disk"
base_url = "http://127.0.0.1:9"

[[orgs]]
name = "Acme"
accounts = ["Fake"]

[[orgs.projects]]
name = "proj"
path = "${project}"
auto_start = false
`;

async function run(cmd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stderr: "piped", stdout: "null" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/** Writes until the file system says it is full; answers the filler's path. */
async function fill(dir: string): Promise<string> {
  const path = `${dir}/filler`;
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(16 * 1024).fill(0x61);
  try {
    for (;;) await file.write(chunk);
  } catch (err) {
    assertEquals((err as { code?: string }).code, "ENOSPC", String(err));
  } finally {
    file.close();
  }
  // Small writes may still find a partial block: take those too.
  for (let i = 0; i < 64; i++) {
    try {
      await Deno.writeTextFile(`${dir}/crumb-${i}`, "x".repeat(512));
    } catch {
      break; // full to the last block
    }
  }
  return path;
}

const isUpdate = (name: string) => (m: Record<string, unknown>) =>
  m.kind === "update" && decodeUpdate(m.update).name === name;

Deno.test("a full disk: each write refused in forge's words, nothing torn, served on, writes resume", async () => {
  const root = await Deno.makeTempDir({ prefix: "forge-full-disk-" });
  const mount = `${root}/fs`;
  const project = `${root}/proj`;
  await Deno.mkdir(mount);
  await Deno.mkdir(project);
  await run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount);
  const log = memoryLogger();
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let c: ForgeClient | null = null;
  try {
    const configPath = `${mount}/forge.toml`;
    const configText = CONFIG(project);
    await Deno.writeTextFile(configPath, configText);
    server = await startServer({ configPath, port: 0, gatewayPort: 0, log });
    c = await ForgeClient.connect(server.url, { validate: true });
    const settings = await c.next((m) => m.kind === "settings");
    const fingerprint = (settings.document as { fingerprint: string }).fingerprint;
    // The board's holders hear tasks_changed (spec: What a subject carries > board).
    c.send({ kind: "subscribe", what: "board" });
    await c.next((m) => m.kind === "snapshot" && m.subject === "board");
    // One task lands while there is room: the board file exists, whole.
    c.send({
      kind: "command",
      command: { task_create: { project: "proj", subject: "before", parent: null } },
    });
    await c.next(isUpdate("tasks_changed"));
    const tasksPath = `${mount}/state/board/Acme/proj/tasks.json`;
    const tasksBefore = await Deno.readTextFile(tasksPath);

    const filler = await fill(mount);

    // A settings save answers `io`, in forge's words.
    const edit = (id: number, port: number) =>
      c!.send({
        kind: "settings_edit",
        fingerprint,
        id,
        edits: [{
          area: "server",
          key_path: "server.port",
          pattern: "server.port",
          op: "set",
          value: port,
        }],
      });
    edit(1, 8795);
    const saved = await c.next((m) => m.kind === "settings_refused" && m.id === 1);
    assertEquals(saved.reason, "io");
    assertMatch(String(saved.message), /forge\.toml: the disk is full$/);
    // A board change is refused, naming the disk.
    c.send({
      kind: "command",
      command: { task_create: { project: "proj", subject: "during", parent: null } },
    });
    const boardRefused = await c.next((m) => m.kind === "error" && m.what === "task_create");
    assertMatch(
      String(boardRefused.why),
      /proj's board could not be saved, so nothing changed: .*tasks\.json could not be written: the disk is full/,
    );
    // A worker spawn is refused before anything is made.
    const spawn = () =>
      ask(c!, "spawn_worker", {
        project_key: "proj",
        label: "w1",
        charter: "a charter",
        spawned_by: { org: "Acme", project: "proj", label: "lead" },
      });
    const refusedSpawn = await spawn();
    assertMatch(
      String(refusedSpawn.Err),
      /^spawn_worker: forge could not write the worker book, so nothing changed: .*workers\.json could not be written: the disk is full$/,
    );

    // Nothing torn: every file holds what it held, and no temp file is left anywhere.
    assertEquals(await Deno.readTextFile(configPath), configText);
    assertEquals(await Deno.readTextFile(tasksPath), tasksBefore);
    const temps: string[] = [];
    for await (const e of walk(mount)) {
      if (e.endsWith(TEMP_SUFFIX) || e.endsWith(".tmp")) temps.push(e);
    }
    assertEquals(temps, []);
    // The server serves on: it answers, and a read still works.
    c.send({ kind: "ping" });
    await c.next((m) => m.kind === "pong");
    c.send({ kind: "subscribe", what: "board" });
    const board = await c.next((m) => m.kind === "snapshot" && m.subject === "board");
    const rows = (board.data as { projects: { rows: { task: { subject: string } }[] }[] })
      .projects[0].rows.map((r) => r.task.subject);
    assertEquals(rows, ["before"]);
    // The disk's refusals are in the log, each naming its file.
    assert(log.records.filter((r) => r.event === "state_write_failed").length >= 2);

    // Space freed: the same writes go through.
    await Deno.remove(filler);
    for await (const e of Deno.readDir(mount)) {
      if (e.name.startsWith("crumb-")) await Deno.remove(`${mount}/${e.name}`);
    }
    edit(2, 8795);
    const again = await c.next((m) =>
      (m.kind === "settings_saved" || m.kind === "settings_refused") && m.id === 2
    );
    assertEquals(again.kind, "settings_saved");
    c.send({
      kind: "command",
      command: { task_create: { project: "proj", subject: "after", parent: null } },
    });
    const changed = decodeUpdate((await c.next(isUpdate("tasks_changed"))).update);
    assertEquals(fieldsOf(changed, "tasks_changed")!.tasks.map((t) => t.subject), [
      "before",
      "after",
    ]);
    // The worker book takes the spawn now; it goes on to the git checks (this project is no repo).
    const afterSpawn = await spawn();
    assert(!/disk is full|worker book/.test(String(afterSpawn.Err)), String(afterSpawn.Err));
  } finally {
    await c?.close();
    await server?.stop();
    await run("umount", mount);
    await Deno.remove(root, { recursive: true });
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else yield path;
  }
}
