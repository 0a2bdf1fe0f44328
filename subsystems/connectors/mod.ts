import { type CommandHandler, type Host, Refusal } from "../../server/subsystem.ts";
import { type Connectors, leadSlot } from "./context.ts";
import { deliverNotification, gotifyTools, notificationOf } from "./gotify.ts";
import { cursorFile, GotifyClient } from "./gotify_client.ts";
import { deliverSlack, slackReadTools } from "./slack.ts";
import { marksFile, SlackHub } from "./slack_hub.ts";
import { slackFileTools } from "./slack_files.ts";
import { DRAFT_EXPIRY_MS, respondSlackPost, slackWriteTools } from "./slack_post.ts";
import { SubscriptionStore } from "./store.ts";

/**
 * Starts the connectors: opens the stored subscriptions, connects Gotify (when `[gotify]` names a
 * server) and starts each `[[slack]]` workspace's poll. Neither client's failure stops the rest:
 * a connector that cannot connect shows as down on home and keeps retrying.
 */
export async function create(host: Host) {
  const dir = `${host.stateDir}/connectors`;
  const store = await SubscriptionStore.open(host.state, dir);
  if (store.loadError) host.log.error("connector_store_failed", { error: store.loadError });
  const config = host.config();
  const gotifyArea = config.areas.gotify ?? {};
  const warn = (event: string, fields: Record<string, unknown>) => host.log.warn(event, fields);
  // Home re-reads on fleet news; a connector's liveness has no update of its own (spec: home),
  // so a moved state is logged and read on the next home read.
  const onState = () => host.log.info("connector_state", { home: homeConnectors() });
  const c: Connectors = { host, store, gotify: null, slack: null as unknown as SlackHub };
  const url = gotifyArea.url, token = gotifyArea.client_token;
  if (typeof url === "string" && typeof token === "string") {
    c.gotify = new GotifyClient({
      url,
      token,
      cursor: cursorFile(host.state, `${dir}/gotify_cursor.json`),
      onMessage: (m, app) => deliverNotification(c, notificationOf(m, app)),
      onState,
      log: host.log,
    });
    c.gotify.start();
  }
  c.slack = new SlackHub(config.slack ?? [], {
    marks: marksFile(host.state, `${dir}/slack_marks.json`),
    subscriptions: () => store.slack,
    arrive: (a) => deliverSlack(c, a),
    onState,
    warn,
  });
  await c.slack.start();
  // A test (and only a test) shortens the 600 s a draft waits for its person.
  const expiry = Number(Deno.env.get("FORGE_SLACK_DRAFT_EXPIRY_SECONDS") ?? "") * 1000 ||
    DRAFT_EXPIRY_MS;

  function homeConnectors() {
    const configured = typeof url === "string" && typeof token === "string";
    return {
      gotify: {
        connected: c.gotify?.connected ?? false,
        configured,
        error: configured ? c.gotify?.error ?? null : "no [gotify] in forge.toml",
      },
      slack: {
        connected_workspaces: [...c.slack.workspaces.values()].map((w) =>
          [w.config.workspace, w.connected] as [string, boolean]
        ),
        load_failed: store.loadError !== null,
        load_error: store.loadError,
      },
    };
  }

  const deliverGotify: CommandHandler<"deliver_gotify_message"> = async (command) => {
    // An app's notification, into the project's lead. The fields arrive parsed
    // (protocol/connectors.ts DeliverGotifyMessageFields); the project is the one check left.
    const { project: name, notification: n } = command.fields;
    const project = host.workspace.projects().find((p) => p.name === name);
    if (!project) throw new Refusal("dispatch", `deliver_gotify_message: no project \`${name}\``);
    const key = leadSlot(project.org, project.name);
    const uuid = crypto.randomUUID();
    // No reply: deliver_gotify_message is not one of the reply commands (its outcome is the turn).
    await host.deliver(key, {
      text: `[Gotify - app '${n.app}', priority ${n.priority}]\n${n.title}\n${n.message}`,
      source: "gotify",
      uuid,
      announce: { name: "gotify_notification_appended", fields: { key, notification: n, uuid } },
    });
  };

  return {
    verbs: {},
    commands: {
      respond_slack_post: respondSlackPost(c),
      deliver_gotify_message: deliverGotify,
    },
    subjects: {},
    tools: {
      ...gotifyTools(c),
      ...slackReadTools(c),
      ...slackWriteTools(c, expiry),
      ...slackFileTools(c, expiry),
    },
    homeFields: () => ({ connectors: homeConnectors() }),
    boardFields: (p: { org: string; name: string }) => ({ connectors: store.setsOf(p) }),
    stop: async () => {
      await c.gotify?.stop();
      await c.slack.stop();
    },
  };
}
