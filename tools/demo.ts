import { portFlag } from "../server/boot/flags.ts";
import { ConnectionClosed, ForgeClient } from "./client_lib.ts";

/**
 * `tools/deno.sh task demo [--port N] [--once]`: forge with a seat at work and no Anthropic
 * account. It lays out a temp dir (the project `hello` as a git repository, the CLI's config dir,
 * HOME), starts the scripted fake Messages API (fixtures/fake_api) on fixtures/demo/script.json,
 * writes fixtures/demo/forge.toml with the dir and the API's URL filled in, starts forge on it
 * through the launcher (`deno task start`), subscribes to the lead as an answering client and
 * sends it one prompt, printing the turn as the real `claude` CLI works it. It then keeps
 * running, so `tools/deno.sh task client --port N ...` can watch and prompt the same seat, until
 * Ctrl-C, which stops forge and the fake API and removes the dir. `--once` exits after the
 * first turn (the demo test uses it).
 */
const REPO = new URL("..", import.meta.url).pathname;
const DEMO = `${REPO}fixtures/demo`;
const SEAT = { org: "Demo", project: "hello", label: "lead" };

const args = [...Deno.args];
let port = 8790;
try {
  port = portFlag(args, "--port") ?? port;
} catch (err) {
  console.error(`demo: ${(err as Error).message}`);
  Deno.exit(2);
}
const once = args.includes("--once");

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-demo-" }));
const children: Deno.ChildProcess[] = [];
let cleaned: Promise<void> | null = null;
const cleanup = () =>
  cleaned ??= (async () => {
    for (const child of children.reverse()) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    }
    await Deno.remove(dir, { recursive: true }).catch((err) =>
      console.error(`demo: could not remove ${dir}: ${(err as Error).message}`)
    );
  })();
// Ctrl-C before the conversation has begun (forge still booting) cleans up too; the
// conversation then takes the signals over to end the turn loop.
const interrupted = () => void cleanup().then(() => Deno.exit(130));
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, interrupted);

try {
  await layOut();
  const apiUrl = await startFakeApi();
  const configPath = `${dir}/forge/forge.toml`;
  const template = await Deno.readTextFile(`${DEMO}/forge.toml`);
  await Deno.writeTextFile(configPath, fill(template, apiUrl));
  const listening = await startForge(configPath);
  say(`forge is serving ws://${listening}/socket (config ${configPath})`);
  say(`log: ${dir}/forge/forge.log and ${dir}/forge/stderr.log`);
  say(
    `watch it too: tools/deno.sh task client --port ${listening.split(":").pop()} --follow ` +
      `subscribe Demo/hello/lead`,
  );
  await converse(`ws://${listening}/socket`);
} catch (err) {
  // Ctrl-C reaches forge too, and its shutdown close (1001) can come before the demo hears the
  // signal: forge going away is the demo's end, not its failure.
  if (err instanceof ConnectionClosed && err.code === 1001) {
    say("forge shut down; the demo ends");
    await cleanup();
    Deno.exit(0);
  }
  console.error(`demo: ${(err as Error).message}`);
  await cleanup();
  Deno.exit(1);
}
await cleanup();
Deno.exit(0);

/** Deno's cache as the caller has it, as `deno info` reports it. */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

function say(line: string): void {
  console.log(`demo: ${line}`);
}

function fill(text: string, apiUrl: string): string {
  return text.replaceAll("@API@", apiUrl).replaceAll("@DIR@", dir);
}

/** The project (a git repository, as a real one is), HOME, the CLI's config dir, forge's dir. */
async function layOut(): Promise<void> {
  for (const sub of ["home", "claude", "tmp", "forge", "hello"]) {
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
  }
  for await (const entry of Deno.readDir(`${DEMO}/project`)) {
    await Deno.copyFile(`${DEMO}/project/${entry.name}`, `${dir}/hello/${entry.name}`);
  }
  const git = (...a: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.name=forge demo", "-c", "user.email=demo@localhost", ...a],
      cwd: `${dir}/hello`,
      stdout: "null",
      stderr: "null",
    }).output();
  await git("init", "-q", "-b", "main");
  await git("add", ".");
  await git("commit", "-q", "-m", "the demo project");
}

async function startFakeApi(): Promise<string> {
  const script = `${dir}/script.json`;
  await Deno.writeTextFile(script, fill(await Deno.readTextFile(`${DEMO}/script.json`), ""));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-write",
      `${REPO}fixtures/fake_api/main.ts`,
      "--script",
      script,
      "--log",
      `${dir}/api.log`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  children.push(child);
  const [apiPort] = await readLine(child.stdout, /LISTENING (\d+)/, "the fake API");
  return `http://127.0.0.1:${apiPort}`;
}

/** forge as a person starts it: the launcher, under the permissions the config needs. */
async function startForge(configPath: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      "--allow-sys",
      `${REPO}tools/launch.ts`,
      "--config",
      configPath,
      "--port",
      String(port),
      // The account gateway the seat's CLI talks through takes a free port: one demo never
      // collides with another forge (or a test) on this machine.
      "--gateway-port",
      "0",
    ],
    // HOME is the demo's, for the CLI; Deno's cache stays the caller's, or forge would fetch its
    // npm packages again into the demo's HOME on every run.
    env: { HOME: `${dir}/home`, CLAUDE_CONFIG_DIR: `${dir}/claude`, DENO_DIR: await denoDir() },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  children.push(child);
  // stderr goes to a file the cleanup removes: its tail is kept too, to say why forge ended.
  let tail = "";
  const kept = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      tail = (tail + new TextDecoder().decode(chunk)).slice(-2000);
      out.enqueue(chunk);
    },
  });
  child.stderr.pipeThrough(kept).pipeTo((await Deno.create(`${dir}/forge/stderr.log`)).writable)
    .catch(() => {});
  const [hostPort] = await readLine(child.stdout, /LISTENING (\S+:\d+)/, "forge", async () => {
    await child.status;
    const last = tail.trim().split("\n").slice(-5).join("\n");
    return last ? `; its stderr ends:\n${last}` : "; its stderr is empty";
  });
  return hostPort;
}

/** Subscribes as the answering client, sends one prompt and prints the seat's work. */
async function converse(url: string): Promise<void> {
  const client = await ForgeClient.connect(url);
  client.send({ kind: "subscribe", what: { session: SEAT }, answering: true });
  await client.next((m) => m.kind === "snapshot", 30_000);
  const text = "What is in this project?";
  say(`you -> Demo/hello/lead: ${text}`);
  client.send({
    kind: "command",
    command: { prompt: { key: SEAT, text, attachments: [] } },
  });
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.removeSignalListener(signal, interrupted);
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  for (;;) {
    const next = client.next((m) => m.kind === "update" || m.kind === "error", 3_600_000);
    const m = await Promise.race([next, stop.promise.then(() => null)]);
    if (m === null) break;
    if (m.kind === "error") {
      say(`error from forge: ${m.what}: ${m.why}`);
      continue;
    }
    const chat = ((m.update as Record<string, unknown>)?.chat_appended as {
      msg?: Record<string, unknown>;
    })?.msg;
    if (!chat) continue;
    for (const line of describe(chat)) say(line);
    if (chat.type === "result" && once) break;
  }
  await client.close().catch(() => {});
}

/** One CLI frame as lines a person reads; partial deltas are left to the whole message. */
function describe(frame: Record<string, unknown>): string[] {
  const blocks = ((frame.message as { content?: unknown })?.content ?? []) as Record<
    string,
    unknown
  >[];
  if (frame.type === "assistant" && Array.isArray(blocks)) {
    return blocks.flatMap((b) =>
      b.type === "text"
        ? [`lead: ${b.text}`]
        : b.type === "thinking"
        ? [`lead (thinking): ${b.thinking}`]
        : b.type === "tool_use"
        ? [`lead uses ${b.name} ${JSON.stringify(b.input)}`]
        : []
    );
  }
  if (frame.type === "user" && Array.isArray(blocks)) {
    return blocks.filter((b) => b.type === "tool_result").map((b) =>
      `tool result: ${String(JSON.stringify(b.content)).slice(0, 100)}...`
    );
  }
  if (frame.type === "result") {
    return [`turn finished: ${frame.subtype} in ${frame.duration_ms} ms`];
  }
  return [];
}

/** The groups of `re` once a child prints it; a child that ends first is named, with `why`. */
async function readLine(
  stream: ReadableStream<Uint8Array>,
  re: RegExp,
  name: string,
  why: () => Promise<string> = () => Promise.resolve(""),
): Promise<string[]> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      const printed = out.trim() ? `; it printed: ${out.trim()}` : "";
      throw new Error(`${name} exited before it was listening${printed}${await why()}`);
    }
    out += value;
    const m = re.exec(out);
    if (m) {
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })();
      return m.slice(1);
    }
  }
}
