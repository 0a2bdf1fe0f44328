import type { NotifyChannel } from "../../protocol/mod.ts";
import type { Logger } from "../../server/log.ts";
import { type CommandHandler, Refusal } from "../../server/subsystem.ts";
import { hostOf } from "./http.ts";
import type { Push } from "./push.ts";
import type { Sender } from "./sender.ts";
import { pushHostGranted } from "./settings.ts";
import type { WebPushStore } from "./webpush_store.ts";

/** What the three commands work with. */
export interface CommandDeps {
  log: Logger;
  /** Web Push's store, or null when `[notify.webpush] enabled` was false at boot. */
  store: WebPushStore | null;
  /** `[notify.webpush] push_hosts` as the launcher granted them at boot (settings.ts). */
  pushHosts: readonly string[];
  sender: Sender;
  /** The test push for a channel, its words already scrubbed. */
  testPush: (channel: NotifyChannel) => Push;
  /** Home's `notify` may have moved: pushed as `notify_state_changed` if it did. */
  announce: () => void;
}

/**
 * `notify_subscribe`, `notify_unsubscribe` and `notify_test` (reply_to required), forge's
 * extensions (protocol/notify.ts). A subscription naming a push service the launcher did not
 * grant is refused in words naming the key that grants it.
 */
export function notifyCommands(d: CommandDeps) {
  const webPush = (command: string): WebPushStore => {
    if (d.store === null) {
      throw new Refusal(
        "dispatch",
        `${command}: Web Push is off ([notify.webpush] enabled is false)`,
      );
    }
    return d.store;
  };

  const notify_subscribe: CommandHandler<"notify_subscribe"> = async ({ fields }) => {
    const store = webPush("notify_subscribe");
    const where = hostOf(fields.endpoint);
    // The launcher granted the network to these hosts alone (docs/notify.md "Permissions").
    if (!pushHostGranted(d.pushHosts, where)) {
      throw new Refusal(
        "dispatch",
        `notify_subscribe: the push service ${where} is not in [notify.webpush] push_hosts ` +
          `(${d.pushHosts.join(", ")}); add it and restart forge`,
      );
    }
    await store.add({ endpoint: fields.endpoint, keys: fields.keys });
    d.log.info("notify_subscription_added", { host: where });
    d.announce();
  };

  const notify_unsubscribe: CommandHandler<"notify_unsubscribe"> = async ({ fields }) => {
    const store = webPush("notify_unsubscribe");
    if (!(await store.remove(fields.endpoint))) {
      throw new Refusal(
        "dispatch",
        "notify_unsubscribe: no browser is subscribed with that endpoint",
      );
    }
    d.log.info("notify_subscription_removed", { host: hostOf(fields.endpoint) });
    d.announce();
  };

  const notify_test: CommandHandler<"notify_test"> = async ({ fields }) => {
    const reply = await d.sender.test(fields.channel, d.testPush(fields.channel));
    d.log.info("notify_tested", { channel: fields.channel, ok: reply.ok, why: reply.why });
    return reply;
  };

  return { notify_subscribe, notify_unsubscribe, notify_test };
}
