import { type FakeGotify, GOTIFY_APPS, startFakeGotify } from "../fixtures/gotify/mod.ts";
import { type FakeNtfy, startFakeNtfy } from "../fixtures/ntfy/mod.ts";
import { type FakePushService, startFakePushService } from "../fixtures/webpush/mod.ts";
import type { Slot, UpdateFields } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { type SeatWorld, seatWorld, typedUpdateOf, updateOf } from "./seats_harness.ts";
export { nextUpdate } from "./seats_harness.ts";

export const NTFY_TOKEN = "tk_planted-ntfy-token-7Qx";
export const TOPIC = "forge-alerts";
export const CLIENT_URL = "http://127.0.0.1:1/forge/";
export const GOTIFY_APP_TOKEN = GOTIFY_APPS.forge;

type Msg = Record<string, unknown>;

export interface NotifyWorld extends AsyncDisposable {
  world: SeatWorld;
  ntfy: FakeNtfy;
  gotify: FakeGotify;
  push: FakePushService;
  /** The messages forge posted to Gotify (its `forge` application), oldest first. */
  gotifyMessages(): Promise<Msg[]>;
}

/**
 * A seat world (projects alpha and beta unless `projects` names others) whose forge.toml turns
 * pushes on through a fake ntfy server (with a token), a fake Gotify server (forge's application
 * token) and, with `webpush`, a fake push service as the one allowed push host; each fake its own
 * process. The browser is off, so the launcher's network grant is the servers' alone
 * (docs/notify.md "Permissions"). `coalesce_secs` is 0 unless `coalesceSecs` says otherwise: the
 * window is the unit tests' (notifier_test.ts), so here each push counts. `named` is a fake API
 * script's named sequences, written to a file the world removes; else `script` is the file.
 */
export async function notifyWorld(
  opts: {
    script?: string;
    named?: Record<string, unknown[]>;
    projects?: string[];
    coalesceSecs?: number;
    webpush?: boolean;
    extra?: string;
  } = {},
): Promise<NotifyWorld> {
  const scriptFile = opts.named ? await Deno.makeTempFile({ suffix: ".json" }) : null;
  if (scriptFile) await Deno.writeTextFile(scriptFile, JSON.stringify({ named: opts.named }));
  const projects = (opts.projects ?? ["alpha", "beta"]).map((name) => ({ name }));
  const world = await seatWorld(projects, scriptFile ?? opts.script);
  const ntfy = await startFakeNtfy(NTFY_TOKEN);
  const gotify = await startFakeGotify(world.dir);
  const push = await startFakePushService();
  await Deno.writeTextFile(
    world.configPath,
    `\n[browser]\nenabled = false\n\n[notify]\nenabled = true\n` +
      `coalesce_secs = ${opts.coalesceSecs ?? 0}\n` +
      `client_url = "${CLIENT_URL}"\n\n[notify.ntfy]\nurl = "${ntfy.url}"\ntopic = "${TOPIC}"\n` +
      `token = "${NTFY_TOKEN}"\n\n[notify.gotify]\nurl = "${gotify.url}"\n` +
      `app_token = "${GOTIFY_APP_TOKEN}"\n` +
      (opts.webpush
        ? `\n[notify.webpush]\nenabled = true\nsubject = "mailto:forge@example.invalid"\n` +
          `push_hosts = ["${push.host}"]\n`
        : "") +
      (opts.extra ?? ""),
    { append: true },
  );
  return {
    world,
    ntfy,
    gotify,
    push,
    async gotifyMessages() {
      const res = await fetch(`${gotify.url}/message?limit=100`, {
        headers: { "X-Gotify-Key": gotify.clientToken },
      });
      const page = await res.json() as { messages: Msg[] };
      return page.messages.reverse();
    },
    async [Symbol.asyncDispose]() {
      await world.dispose();
      await ntfy.stop();
      await gotify.stop();
      await push.stop();
      if (scriptFile) await Deno.remove(scriptFile);
    },
  };
}

/** The next `permission_request` on a seat. */
export async function nextAsk(
  c: ForgeClient,
  slot: Slot,
): Promise<UpdateFields<"permission_request">> {
  const m = await c.next((m) => {
    const u = updateOf(m, "permission_request");
    return u !== null && JSON.stringify(u.key) === JSON.stringify(slot);
  }, 60_000);
  return typedUpdateOf(m, "permission_request")!;
}

/** Subscribes a client to home (answering) and answers home's `notify` row. */
export async function homeNotify(c: ForgeClient): Promise<Msg> {
  c.send({ kind: "subscribe", what: "home", answering: true });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  return (snap.data as Msg).notify as Msg;
}

/**
 * The next `notify_state_changed` in which `channel` is in `state` (with words matching `why`,
 * when given): that channel's state.
 */
export async function nextChannelState(
  c: ForgeClient,
  channel: string,
  state: string,
  why?: RegExp,
  ms = 60_000,
): Promise<{ state: string; why: string | null }> {
  const pick = (m: Msg) =>
    ((updateOf(m, "notify_state_changed")?.channels ?? {}) as Record<string, Msg>)[channel];
  const m = await c.next(
    (m) => pick(m)?.state === state && (!why || why.test(String(pick(m)?.why))),
    ms,
  );
  return pick(m) as { state: string; why: string | null };
}
