import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";

/** The token and cost pool, scanned on the ask. spec: What a subject carries > usage. */
export const usageManifest = defineSubsystem({
  id: "usage",
  note: "token and cost figures from the session pool",
  switch: "usage.enabled",
  area: {
    id: "usage",
    name: "usage",
    note: "the usage scan",
    keys: [key.bool("usage.enabled", true, "restart", "serve the usage subject")],
  },
  verbs: [],
  commands: [],
  subjects: ["usage"],
  binary: [],
  load: () => import("./mod.ts"),
});
