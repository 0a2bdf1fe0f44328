import type { AnyManifest } from "../server/subsystem.ts";
import { agentsManifest } from "./agents/manifest.ts";
import { browserManifest } from "./browser/manifest.ts";
import { connectorsManifest } from "./connectors/manifest.ts";
import { dictateManifest } from "./dictate/manifest.ts";
import { notifyManifest } from "./notify/manifest.ts";
import { pluginsManifest } from "./plugins/manifest.ts";
import { reviewManifest } from "./review/manifest.ts";
import { terminalManifest } from "./terminal/manifest.ts";
import { usageManifest } from "./usage/manifest.ts";
import { vaultManifest } from "./vault/manifest.ts";
import { voiceManifest } from "./voice/manifest.ts";

/**
 * Every subsystem's manifest. Importing this is cheap: a manifest names what a subsystem adds and
 * how to load it, and the registry imports the implementation only when its switch is on.
 */
export const SUBSYSTEMS: readonly AnyManifest[] = [
  terminalManifest,
  reviewManifest,
  usageManifest,
  browserManifest,
  dictateManifest,
  voiceManifest,
  vaultManifest,
  pluginsManifest,
  agentsManifest,
  connectorsManifest,
  notifyManifest,
];
