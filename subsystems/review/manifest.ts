import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { REVIEW_TOOLS } from "./agent_tools.ts";
import { DOCUMENT_TOOLS } from "./hand_off_tool.ts";

/**
 * The review surface's reads and writes, and the agent's side of a review (the `review` MCP
 * family, the original forge's). spec: document_read, file_content, the review writes.
 */
export const reviewManifest = defineSubsystem({
  id: "review",
  note: "working tree, diffs, file content, documents and review threads",
  switch: "review.enabled",
  area: {
    id: "review",
    name: "review",
    note: "git reads and review threads",
    keys: [key.bool("review.enabled", true, "restart", "serve the review reads and threads")],
  },
  verbs: ["document_read", "answer_document_hand_off", "file_content", "commit_diff"],
  commands: [
    "save_review_threads",
    "remove_review_thread",
    "set_review_thread_status",
    "upsert_review_thread",
    "submit_review",
  ],
  subjects: [],
  binary: [],
  tools: [...REVIEW_TOOLS, ...DOCUMENT_TOOLS],
  load: () => import("./mod.ts"),
});
