import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";

/**
 * The plugin inventory, its six actions over the real `claude plugin` CLI and its update runs.
 * spec: What a subject carries > extensions; "What is not here" (the six actions).
 */
export const pluginsManifest = defineSubsystem({
  id: "plugins",
  note: "Claude Code plugins: inventory, checks and updates",
  switch: "plugins.enabled",
  area: {
    id: "plugins",
    name: "plugins",
    note: "the plugin inventory",
    keys: [
      key.bool("plugins.enabled", true, "restart", "serve the extensions subject"),
      key.bool("plugins.auto_update", false, "restart", "update plugins once at boot"),
    ],
  },
  verbs: [],
  commands: [
    "plugin_update_all",
    "plugin_check_updates",
    "plugin_install",
    "plugin_update",
    "plugin_marketplace_add",
    "plugin_marketplace_repair",
  ],
  subjects: ["extensions"],
  binary: [],
  load: () => import("./mod.ts"),
});
