import { defineSubsystem } from "../../server/subsystem.ts";
import { GOTIFY_TOOLS } from "./gotify.ts";
import { SLACK_READ_TOOLS } from "./slack.ts";
import { SLACK_FILE_TOOLS } from "./slack_files.ts";
import { SLACK_WRITE_TOOLS } from "./slack_post.ts";

/**
 * The connectors: Gotify's stream and Slack's workspaces reach the agents as forged
 * user turns, and an agent's Slack post waits for a person. Always loaded: without `[gotify]` or
 * `[[slack]]` (their config areas are the core's `gotify` and `slack`) the tools answer that none
 * is configured and home shows them down. spec: home > connectors; board > connectors.
 */
export const connectorsManifest = defineSubsystem({
  id: "connectors",
  note: "Gotify and Slack: subscriptions, deliveries and held Slack drafts",
  switch: null,
  area: null,
  verbs: [],
  commands: ["respond_slack_post", "deliver_gotify_message"],
  subjects: [],
  binary: [],
  tools: [...GOTIFY_TOOLS, ...SLACK_READ_TOOLS, ...SLACK_WRITE_TOOLS, ...SLACK_FILE_TOOLS],
  load: () => import("./mod.ts"),
});
