/**
 * The push services' hosts a browser's subscription may name when `[notify.webpush] push_hosts`
 * is unset: Chrome and Android's, Firefox's and Safari's. Deno's `--allow-net` is fixed at
 * launch, so a service on any other host is added to the list (Edge's regional WNS hosts as
 * `*.notify.windows.com`, a wildcard Deno takes). docs/notify.md "Permissions".
 */
export const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "web.push.apple.com",
];
