import type { NotifyPermission } from "../pwa/notify_gate.ts";

/**
 * This browser's notification permission as a person reads it: the browser's own values
 * (`default`, `granted`, `denied`) say nothing to someone who never read the Notifications API,
 * and "unavailable" needs its reason (a page on plain http, not localhost, has none).
 */
export function permissionWords(p: NotifyPermission): string {
  switch (p) {
    case "granted":
      return "on";
    case "denied":
      return "blocked (this browser's site settings can allow them)";
    case "default":
      return "off (not asked yet)";
    case "unavailable":
      return "unavailable here (a page needs https, or localhost, to notify)";
  }
}
