import { type HomeNotify, type SessionUpdate, slotName } from "../../protocol/mod.ts";
import { type Clock, guarded, MONOTONIC } from "../../server/clock.ts";
import type { Host } from "../../server/subsystem.ts";
import { gotifyChannel, ntfyChannel } from "./channels.ts";
import { notifyCommands } from "./commands.ts";
import { hostOf } from "./http.ts";
import { secretsOf } from "../../server/config/secrets.ts";
import { NeedReader } from "./needs.ts";
import { Notifier } from "./notifier.ts";
import { composePush, type Push, scrub, seatTitle, testPush } from "./push.ts";
import { Sender } from "./sender.ts";
import { notifySettings } from "./settings.ts";
import { webPushChannel } from "./webpush.ts";
import { VaultValues } from "./vault_values.ts";
import { WebPushStore } from "./webpush_store.ts";

/** Starts pushes on the machine's clock. */
export function create(host: Host) {
  return start(host, MONOTONIC);
}

/**
 * The notify subsystem on a given clock (a test moves it): reads the update stream for what a
 * seat needs (needs.ts), decides when its person is pushed (notifier.ts), sends through the
 * channels (sender.ts) and answers its commands (commands.ts). The servers' URLs and whether
 * Web Push is on are the ones in force at boot (the launcher granted network to them); the rest
 * is read live. docs/notify.md.
 */
export async function start(host: Host, machine: Clock) {
  // What breaks in a timer or a send nobody awaits stays here: logged, never the server's end.
  const crashed = (error: unknown) => host.log.error("notify_crashed", { error });
  const clock = guarded(machine, crashed);
  const settings = () => notifySettings(host.config());
  const boot = settings();
  const store = boot.webpush.enabled
    ? await WebPushStore.open(host.state, `${host.stateDir}/notify`)
    : null;
  if (store?.problem) host.log.error("notify_store_damaged", { problem: store.problem });
  const channels = [
    ntfyChannel(boot.ntfy.url, () => settings().ntfy),
    gotifyChannel(boot.gotify.url, () => settings().gotify),
    webPushChannel(store, () => settings().webpush, (sub, status) => {
      host.log.info("notify_subscription_dropped", { host: hostOf(sub.endpoint), status });
      store!.remove(sub.endpoint).then(
        announce,
        (error) => host.log.error("notify_store_failed", { error }),
      ).catch(crashed);
    }),
  ];
  const sender = new Sender({
    clock,
    log: host.log,
    channels,
    retryMs: () => settings().retryMs,
    changed: () => announce(),
    crashed,
  });
  const vault = new VaultValues();
  const clean = (push: Push) => scrub(push, [...secretsOf(host.config()), ...vault.values()]);
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
  // A live key (a topic, a token, the subject) can turn a channel on or off: home hears of it.
  const stopReloads = host.onReload?.(() => {
    try {
      announce();
    } catch (error) {
      crashed(error);
    }
  });

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

  return {
    verbs: {},
    commands: notifyCommands({
      log: host.log,
      store,
      pushHosts: boot.webpush.pushHosts,
      sender,
      testPush: (channel) => clean(testPush(channel, settings().clientUrl)),
      announce,
    }),
    subjects: {},
    homeFields: () => ({ notify: home() }),
    onUpdate: (update: SessionUpdate) => {
      vault.read(update);
      for (const change of reader.read(update)) notifier.apply(change);
    },
    stop: () => {
      stopWatching?.();
      stopReloads?.();
      notifier.stop();
      sender.stop();
      return Promise.resolve();
    },
  };
}
