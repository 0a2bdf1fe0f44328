// Every store forge keeps, opened over a file that does not parse: the file is kept aside byte
// for byte, the damage is reported (a `state_file_damaged` record naming it, the keeper's list
// that home's fatal_error carries, and the area's own error field where it has one), a change
// to the area is refused in words, and the file is never overwritten.
// docs/state.md lists the stores.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { until } from "./harness.ts";
import { Crons, REAL_CLOCK } from "../server/board/cron.ts";
import { TaskBook, taskFilePath } from "../server/board/book.ts";
import { RequestLedger } from "../server/gateway/ledger.ts";
import { UsageCache } from "../server/gateway/usage_cache.ts";
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import { WorkerBook } from "../server/workers/book.ts";
import { PidBook } from "../server/workspace/seats/orphans.ts";
import { SessionBook } from "../server/workspace/seats/session_book.ts";
import { cursorFile, GotifyClient } from "../subsystems/connectors/gotify_client.ts";
import { marksFile, SlackHub } from "../subsystems/connectors/slack_hub.ts";
import { SubscriptionStore } from "../subsystems/connectors/store.ts";
import { Bench } from "../subsystems/dictate/bench.ts";
import { ModelStore } from "../subsystems/dictate/models/store.ts";
import { SeatPrefs } from "../subsystems/dictate/prefs.ts";
import { ReadAloudSet } from "../subsystems/dictate/read_aloud.ts";
import { ThreadStore } from "../subsystems/review/threads.ts";
import { EnrolmentStore } from "../subsystems/vault/enrolments.ts";
import { SpeakingBench } from "../subsystems/voice/bench.ts";
import { WebPushStore } from "../subsystems/notify/webpush_store.ts";

const GARBAGE = '{"half": [1, 2';
const SLOT = { org: "Acme", project: "alpha", label: "lead" };

interface Store {
  /** The file, under the test's state dir. */
  file: string;
  /**
   * Opens the store over the damaged file, tries one change, and answers what the area says:
   * the refusal's words (null when the change answers in its own way, as a cache does) and the
   * area's own error field when it has one.
   */
  open(
    keeper: StateKeeper,
    dir: string,
  ): Promise<{ refused: string | null; field?: string | null }>;
}

async function refusal(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the change was not refused");
}

const STORES: Record<string, Store> = {
  "board tasks": {
    file: "board/Acme/alpha/tasks.json",
    async open(keeper, dir) {
      const book = await TaskBook.open(keeper, dir, "Acme", "alpha");
      assertEquals(taskFilePath(dir, "Acme", "alpha"), `${dir}/board/Acme/alpha/tasks.json`);
      return {
        refused: await refusal(() => book.change((l) => l.tasks.length)),
        field: book.error,
      };
    },
  },
  "schedules": {
    file: "board/cron.json",
    open: schedulesRefused,
  },
  "fired names": {
    file: "board/cron_fired.json",
    open: schedulesRefused,
  },
  "connector subscriptions": {
    file: "connectors/subscriptions.json",
    async open(keeper, dir) {
      const store = await SubscriptionStore.open(keeper, `${dir}/connectors`);
      return {
        refused: await refusal(() => store.change((d) => d.gotify.splice(0))),
        field: store.loadError,
      };
    },
  },
  "gotify cursor": {
    file: "connectors/gotify_cursor.json",
    async open(keeper, dir) {
      const client = new GotifyClient({
        url: "http://127.0.0.1:9",
        token: "t",
        cursor: cursorFile(keeper, `${dir}/connectors/gotify_cursor.json`),
        onMessage: () => {},
        onState: () => {},
        log: memoryLogger(),
        backoffMs: { first: 10, max: 10 },
      });
      client.start();
      await until(() => /did not parse/.test(client.error ?? ""), 10_000, "the cursor refused");
      await client.stop();
      // The client does not connect over a cursor it cannot read: that is its refusal.
      return { refused: client.error, field: client.error };
    },
  },
  "slack marks": {
    file: "connectors/slack_marks.json",
    async open(keeper, dir) {
      const hub = new SlackHub([{
        workspace: "acme",
        token: "xoxp-test",
        poll_seconds: 3600,
        thread_idle_days: 14,
        api_url: "http://127.0.0.1:9/api/",
      }], {
        marks: marksFile(keeper, `${dir}/connectors/slack_marks.json`),
        subscriptions: () => [],
        arrive: () => {},
        onState: () => {},
        warn: () => {},
      });
      await hub.start();
      const ws = hub.workspaces.get("acme")!;
      await until(() => ws.error !== null, 10_000, "the poll refused");
      await hub.stop();
      return { refused: ws.error, field: ws.error };
    },
  },
  "workers book": {
    file: "workers/workers.json",
    async open(keeper, dir) {
      const book = new WorkerBook(keeper, `${dir}/workers`);
      assertEquals(await book.load(), []);
      return {
        refused: await refusal(() => book.delete(SLOT).then(() => book.set(worker()))),
        field: book.damage,
      };
    },
  },
  "session book": {
    file: "seats/sessions.json",
    async open(keeper, dir) {
      const book = new SessionBook(keeper, `${dir}/seats`, keeper.log);
      assertEquals(await book.load(), []);
      // A launch asks the book first (driver.ts): refused while it is damaged.
      return { refused: await refusal(() => book.writable()), field: book.damage };
    },
  },
  "pid book": {
    file: "seats/pids.json",
    async open(keeper, dir) {
      const book = new PidBook(keeper, `${dir}/seats`, keeper.log);
      assertEquals(await book.reap(), []);
      return { refused: await refusal(() => book.writable()), field: book.damage };
    },
  },
  "review threads": {
    file: "reviews/alpha/main/threads.json",
    async open(keeper, dir) {
      const store = new ThreadStore(keeper, dir);
      const read = await store.readThreads("alpha", "main");
      return {
        refused: await refusal(() => store.save("alpha", "main", [])),
        field: read.outcome === "failed" ? read.value : null,
      };
    },
  },
  "review rounds": {
    file: "reviews/alpha/main/reviews.json",
    async open(keeper, dir) {
      const store = new ThreadStore(keeper, dir);
      const read = await store.readReviews("alpha", "main");
      // submit_review's reply is the spec's null; the words go to the log.
      assertEquals(await store.submitReview("alpha", "main", null, []), null);
      return { refused: null, field: read.outcome === "failed" ? read.value : null };
    },
  },
  "vault enrolments": {
    file: "vault/enrolments.json",
    async open(keeper, dir) {
      const store = new EnrolmentStore(keeper, `${dir}/vault/enrolments.json`);
      return { refused: await refusal(() => store.enrol("phone", "unlock", "blob")) };
    },
  },
  "dictation prefs": {
    file: "dictate/prefs.json",
    async open(keeper, dir) {
      const prefs = await SeatPrefs.open(keeper, `${dir}/dictate`);
      return { refused: await refusal(() => prefs.override(SLOT, "reset")) };
    },
  },
  "dictation models": {
    file: "models/installed.json",
    async open(keeper, dir) {
      const store = await ModelStore.open(keeper, `${dir}/models`);
      assertEquals(store.installed(), []);
      return { refused: await refusal(() => store.setPick(null)) };
    },
  },
  "read-aloud set": {
    file: "dictate/read_aloud/index.json",
    async open(keeper, dir) {
      const set = await ReadAloudSet.open(keeper, `${dir}/dictate/read_aloud`);
      return {
        refused: await refusal(() => Promise.resolve().then(() => set.start(1))),
        field: set.error,
      };
    },
  },
  "dictation bench results": {
    file: "dictate/bench.json",
    async open(keeper, dir) {
      const set = await ReadAloudSet.open(keeper, `${dir}/dictate/read_aloud`);
      const bench = await Bench.open(keeper, `${dir}/dictate/bench.json`, set, () => {});
      assertEquals(bench.results(), []);
      return {
        refused: await refusal(() =>
          bench.remove({ role: "dictation", file: "x.bin", pinned: false }, "read_aloud", "c")
        ),
      };
    },
  },
  "speaking results": {
    file: "voice/speaking_results.json",
    async open(keeper, dir) {
      const bench = await SpeakingBench.open(keeper, `${dir}/voice/speaking_results.json`);
      assertEquals(bench.results(), []);
      return { refused: await refusal(() => bench.writable()) };
    },
  },
  "notify Web Push keys": {
    file: "notify/vapid.json",
    async open(keeper, dir) {
      const store = await WebPushStore.open(keeper, `${dir}/notify`);
      assertEquals(store.keys, null);
      return {
        refused: await refusal(() =>
          store.add({ endpoint: "https://push.invalid/a", keys: { p256dh: "B", auth: "A" } })
        ),
        field: store.problem,
      };
    },
  },
  "notify Web Push subscriptions": {
    file: "notify/subscriptions.json",
    async open(keeper, dir) {
      const store = await WebPushStore.open(keeper, `${dir}/notify`);
      return {
        refused: await refusal(() => store.remove("https://push.invalid/a")),
        field: store.problem,
      };
    },
  },
  "gateway usage cache": {
    file: "gateway/usage.json",
    async open(keeper, dir) {
      const cache = new UsageCache(keeper, `${dir}/gateway/usage.json`);
      assertEquals((await cache.open()).size, 0);
      // A cache answers no one: its saves are refused in the log and the file stands.
      cache.save(new Map());
      await cache.flushed();
      return { refused: null };
    },
  },
  "gateway request ledger": {
    file: "gateway/requests.jsonl",
    async open(keeper, dir) {
      const ledger = new RequestLedger(keeper, `${dir}/gateway/requests.jsonl`);
      await ledger.open();
      ledger.record("req_1", "A");
      return { refused: null };
    },
  },
};

/** Both schedule files refuse the same way: a new schedule, and the board's error says why. */
async function schedulesRefused(keeper: StateKeeper, dir: string) {
  const crons = await Crons.open(keeper, dir, cronOpts());
  return {
    refused: await refusal(() =>
      crons.create("Acme", "alpha", "lead", { prompt: "p", schedule: "0 9 * * *" })
    ),
    field: crons.error,
  };
}

function cronOpts() {
  return {
    clock: REAL_CLOCK,
    deliver: () => Promise.resolve("sent" as const),
    changed: () => {},
    log: memoryLogger(),
  };
}

function worker() {
  return {
    slot: { ...SLOT, label: "w1" },
    charter: "c",
    kick: null,
    resume_kick: null,
    interactive: false,
    mcp_families: null,
    worktree: "/tmp/w1",
    spawned_by: SLOT,
    live: true,
  };
}

for (const [name, store] of Object.entries(STORES)) {
  Deno.test(`${name}: a damaged file is kept aside, reported, refused, never overwritten`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "forge-corrupt-" });
    try {
      const path = `${dir}/${store.file}`;
      await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
      // The ledger's lines are records; its damage is a line in the middle that is not one.
      const bytes = store.file.endsWith(".jsonl")
        ? `${GARBAGE}\n{"request_id":"r","account":"A"}\n`
        : GARBAGE;
      await Deno.writeTextFile(path, bytes);
      const log = memoryLogger();
      const keeper = new StateKeeper(log);
      const said = await store.open(keeper, dir);
      await keeper.flushed();
      // Reported: a log record naming the file, and the keeper's list home reads.
      assert(
        log.records.some((r) => r.event === "state_file_damaged" && "path" in r && r.path === path),
        "a state_file_damaged record names the file",
      );
      assertEquals(keeper.damaged().map((d) => d.path), [path]);
      for (const words of [said.refused, said.field]) {
        if (words === undefined || words === null) continue;
        assertMatch(words, /did not parse/);
        assertMatch(words, /until the file is mended or removed/);
      }
      if (said.field !== undefined) assert(said.field !== null, "the area's error field says so");
      // Never overwritten, and kept aside byte for byte.
      assertEquals(await Deno.readTextFile(path), bytes);
      const folder = path.replace(/\/[^/]*$/, "");
      const base = path.slice(folder.length + 1);
      const asides = [...Deno.readDirSync(folder)].filter((e) =>
        e.name.startsWith(`${base}.corrupt-`)
      );
      assertEquals(asides.length, 1);
      assertEquals(await Deno.readTextFile(`${folder}/${asides[0].name}`), bytes);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
