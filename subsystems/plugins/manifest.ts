import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";

/** The plugin inventory and its update runs. spec: What a subject carries > extensions. */
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
  commands: ["plugin_update_all", "plugin_check_updates"],
  subjects: ["extensions"],
  binary: [],
  load: null,
});
