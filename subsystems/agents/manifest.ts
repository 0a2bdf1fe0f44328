import { defineSubsystem } from "../../server/subsystem.ts";
import { AGENT_TOOLS } from "./tools.ts";

/**
 * The agents' own family: who am I, which seats forge runs, and a message to another
 * project's lead (`deliver_peer_prompt`). Always on: an agent that cannot message cannot report.
 * Spawning workers comes with the Workers issue.
 */
export const agentsManifest = defineSubsystem({
  id: "agents",
  note: "the agents' view of each other: identity, the seats, peer messages",
  switch: null,
  area: null,
  verbs: [],
  commands: ["deliver_peer_prompt"],
  subjects: [],
  binary: [],
  tools: AGENT_TOOLS,
  load: () => import("./mod.ts"),
});
