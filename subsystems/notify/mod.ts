import { type HomeNotify, type SessionUpdate, slotName } from "../../protocol/mod.ts";
import { type CommandHandler, type Host, Refusal } from "../../server/subsystem.ts";
import { gotifyChannel, ntfyChannel } from "./channels.ts";
import { type Clock, WALL_CLOCK } from "./clock.ts";
import { hostOf } from "./http.ts";
import { secretsOf } from "./lines.ts";
import { NeedReader } from "./needs.ts";
import { Notifier } from "./notifier.ts";
import { composePush, type Push, scrub, seatTitle } from "./push.ts";
import { Sender } from "./sender.ts";
import { notifySettings } from "./settings.ts";
import { webPushChannel } from "./webpush.ts";
import { WebPushStore } from "./webpush_store.ts";

/** Starts pushes on the wall clock. */
export function create(host: Host) {
  return start(host, WALL_CLOCK);
}

/**
 * The notify subsystem on a given clock (a test moves it): reads the update stream for what a
 * seat needs (needs.ts), decides when its person is pushed (notifier.ts) and sends through the
 * channels (sender.ts). The servers' URLs and whether Web Push is on are the ones in force at
 * boot (the launcher granted network to them); the rest is read live. docs/notify.md.
 */
export async function start(host: Host, clock: Clock) {
  const settings = () => notifySettings(host.config());
  const boot = settings();
  const store = boot.webpush.enabled
    ? await WebPushStore.open(host.state, `${host.stateDir}/notify`)
    : null;
  if (store?.problem) host.log.error("notify_store_damaged", { problem: store.problem });
  const channels = [
    ntfyChannel(boot.ntfy.url, () => settings().ntfy),
    gotifyChannel(boot.gotify.url, () => settings().gotify.appToken),
    webPushChannel(store, () => settings().webpush.subject, (sub, status) => {
      host.log.info("notify_subscription_dropped", { host: hostOf(sub.endpoint), status });
      store!.remove(sub.endpoint).then(
        announce,
        (error) => host.log.error("notify_store_failed", { error }),
      );
    }),
  ];
  const sender = new Sender({
    clock,
    log: host.log,
    channels,
    retryMs: () => settings().retryMs,
    changed: () => announce(),
  });
  const clean = (push: Push) => scrub(push, secretsOf(host.config()));
  const notifier = new Notifier({
    clock,
    settings: () => settings(),
    attended: (slot) => host.attendance?.attended(slot) ?? false,
    compose: (slot, needs) =>
      composePush(slot, needs, {
        title: seatTitle(slot, host.config().orgs),
        clientUrl: settings().clientUrl,
      }),
    deliver: (push, wanted) => sender.send(clean(push), wanted),
    held: (slot, need) => host.log.debug("notify_held", { seat: slotName(slot), kind: need.kind }),
  });
  const reader = new NeedReader(() => clock.now(), () => settings().finishedAfterMs);
  const stopWatching = host.attendance?.onChange(() => notifier.attendanceChanged());

  const home = (): HomeNotify => ({
    enabled: true,
    channels: {
      ntfy: sender.state("ntfy"),
      gotify: sender.state("gotify"),
      webpush: sender.state("webpush"),
    },
    vapid_public_key: store?.keys?.publicKey ?? null,
    subscriptions: store?.subscriptions.length ?? 0,
  });
  let last = JSON.stringify(home());
  function announce() {
    const now = home();
    const text = JSON.stringify(now);
    if (text === last) return;
    last = text;
    host.emit({ name: "notify_state_changed", fields: now });
  }

  const subscribe: CommandHandler<"notify_subscribe"> = async ({ fields }) => {
    if (store === null) {
      throw new Refusal(
        "dispatch",
        "notify_subscribe: Web Push is off ([notify.webpush] enabled is false)",
      );
    }
    const where = hostOf(fields.endpoint);
    // The launcher granted the network to these hosts alone (docs/notify.md "Permissions").
    if (!boot.webpush.pushHosts.includes(where)) {
      throw new Refusal(
        "dispatch",
        `notify_subscribe: the push service ${where} is not in [notify.webpush] push_hosts ` +
          `(${boot.webpush.pushHosts.join(", ")}); add it and restart forge`,
      );
    }
    await store.add({ endpoint: fields.endpoint, keys: fields.keys });
    host.log.info("notify_subscription_added", { host: where });
    announce();
  };
  const unsubscribe: CommandHandler<"notify_unsubscribe"> = async ({ fields }) => {
    if (store === null) {
      throw new Refusal(
        "dispatch",
        "notify_unsubscribe: Web Push is off ([notify.webpush] enabled is false)",
      );
    }
    if (!(await store.remove(fields.endpoint))) {
      throw new Refusal(
        "dispatch",
        "notify_unsubscribe: no browser is subscribed with that endpoint",
      );
    }
    host.log.info("notify_subscription_removed", { host: hostOf(fields.endpoint) });
    announce();
  };
  const test: CommandHandler<"notify_test"> = async ({ fields }) => {
    const reply = await sender.test(
      fields.channel,
      clean({
        seat: null,
        kind: "test",
        title: "forge: a test push",
        body: `This ${fields.channel} channel reaches you.`,
        count: 1,
        priority: "default",
        url: settings().clientUrl,
      }),
    );
    host.log.info("notify_tested", { channel: fields.channel, ok: reply.ok, why: reply.why });
    return reply;
  };

  return {
    verbs: {},
    commands: { notify_subscribe: subscribe, notify_unsubscribe: unsubscribe, notify_test: test },
    subjects: {},
    homeFields: () => ({ notify: home() }),
    onUpdate: (update: SessionUpdate) => {
      for (const change of reader.read(update)) notifier.apply(change);
    },
    stop: () => {
      stopWatching?.();
      notifier.stop();
      sender.stop();
      return Promise.resolve();
    },
  };
}
