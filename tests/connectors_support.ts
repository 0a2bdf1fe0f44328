/**
 * Test support: a Slack hub on one workspace, `acme`, pointed at the Slack fake, that polls
 * nothing on its own and reports to no one. The tool tests drive it call by call.
 */
import { memoryLogger } from "../server/log.ts";
import { StateKeeper } from "../server/state/keeper.ts";
import { marksFile, SlackHub } from "../subsystems/connectors/slack_hub.ts";

export function quietHub(fake: { token: string; apiUrl: string }, dir: string): SlackHub {
  return new SlackHub([{
    workspace: "acme",
    token: fake.token,
    poll_seconds: 60,
    thread_idle_days: 14,
    api_url: fake.apiUrl,
  }], {
    marks: marksFile(new StateKeeper(memoryLogger()), `${dir}/marks.json`),
    subscriptions: () => [],
    arrive: () => {},
    onState: () => {},
    warn: () => {},
  });
}
