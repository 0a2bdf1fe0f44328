import type { NotifyChannel, NotifyKind, NotifyPushPayload, Slot } from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import { hideSecrets, secretForms } from "../../server/config/secrets.ts";

/** One thing a seat waits on its person for: a parked ask, or an event (failed, finished). */
export interface Need {
  kind: NotifyKind;
  /** Unique on its seat: an ask's id, so its answer withdraws it. */
  id: string;
  /** The one line a push says of it; never a secret (lines.ts). */
  line: string;
}

/** One push, as every channel renders it. */
export interface Push {
  /** The seat it calls for; null for a test push. */
  seat: Slot | null;
  kind: NotifyKind | "test";
  title: string;
  body: string;
  /** How many things wait on the seat, this one included. */
  count: number;
  /** Asks and sign-ins are high, a failure default, a finished turn low. */
  priority: "high" | "default" | "low";
  /** Where a tap lands: `client_url` with the seat's path, or null. */
  url: string | null;
}

/** Why the title says the seat calls, by kind. spec-free: forge's own words. */
const WHY: Record<NotifyKind, string> = {
  ask: "needs you",
  auth: "needs a sign-in",
  failed: "failed",
  finished: "finished",
};
const URGENCY: NotifyKind[] = ["ask", "auth", "failed", "finished"];
const PRIORITY: Record<NotifyKind, Push["priority"]> = {
  ask: "high",
  auth: "high",
  failed: "default",
  finished: "low",
};

/** The orgs' project names, which decide whether a seat's title needs its org. */
export type OrgProjects = readonly { name: string; projects: readonly { name: string }[] }[];

/** `<project>/<label>`, or `<org>/<project>/<label>` where two orgs share the project's name. */
export function seatTitle(slot: Slot, orgs: OrgProjects): string {
  const sharing = orgs.filter((o) => o.projects.some((p) => p.name === slot.project)).length;
  return sharing > 1 ? slotName(slot) : `${slot.project}/${slot.label}`;
}

/**
 * `client_url` with the web client's seat path appended (`#/seat/<org>/<project>/<label>`). A
 * `client_url` whose address names a forge (`#/@box.lan:8790`) keeps that name before the seat:
 * forge cannot know the address a page dials it by, so the operator who runs several forges
 * behind one page names each forge in its own `client_url`, and a tap opens the seat on it.
 */
export function seatUrl(clientUrl: string | null, slot: Slot): string | null {
  if (!clientUrl) return null;
  const path = [slot.org, slot.project, slot.label].map(encodeURIComponent).join("/");
  const at = clientUrl.indexOf("#");
  const base = at < 0 ? clientUrl : clientUrl.slice(0, at);
  const forge = at < 0 ? undefined : /^#\/?(@[^/]+)/.exec(clientUrl.slice(at))?.[1];
  return `${base}#/${forge ? `${forge}/` : ""}seat/${path}`;
}

/**
 * The push for a seat's waiting needs (oldest first): the title names the seat and its most
 * urgent reason, the body that need's line (the newest of its kind) and how many wait.
 */
export function composePush(
  slot: Slot,
  needs: readonly Need[],
  opts: { title: string; clientUrl: string | null },
): Push {
  const kind = URGENCY.find((k) => needs.some((n) => n.kind === k)) ?? "ask";
  const lead = needs.filter((n) => n.kind === kind).at(-1)!;
  const count = needs.length;
  return {
    seat: slot,
    kind,
    title: `${opts.title} ${WHY[kind]}`,
    body: count > 1 ? `${lead.line} (${count} waiting)` : lead.line,
    count,
    priority: PRIORITY[kind],
    url: seatUrl(opts.clientUrl, slot),
  };
}

/** What `notify_test` sends through a channel: no seat, a tap landing on `client_url`. */
export function testPush(channel: NotifyChannel, clientUrl: string | null): Push {
  return {
    seat: null,
    kind: "test",
    title: "forge: a test push",
    body: `This ${channel} channel reaches you.`,
    count: 1,
    priority: "default",
    url: clientUrl,
  };
}

/** The JSON a Web Push carries (protocol/notify.ts NotifyPushPayload). */
export function payloadOf(push: Push): NotifyPushPayload {
  return {
    title: push.title,
    body: push.body,
    kind: push.kind,
    seat: push.seat ? slotName(push.seat) : null,
    count: push.count,
    url: push.url,
  };
}

/**
 * Takes every secret given out of a push's words (a token pasted into a Bash command, say), the
 * longest first so none is left half said: no token, password or key reaches a channel, whatever
 * an agent wrote. A line was cut at 100 characters with its whitespace folded (lines.ts clip),
 * so a secret is looked for folded too, and a cut that ends inside one takes its first
 * characters. Shorter than 4 characters, a "secret" would blank ordinary words.
 */
export function scrub(push: Push, secrets: readonly string[]): Push {
  const longestFirst = secretForms(secrets, 4);
  const clean = (text: string) => {
    let t = hideSecrets(text, longestFirst);
    if (!t.includes("…")) return t;
    for (const s of longestFirst) {
      // A cut line holds at most the 100 characters before its ellipsis.
      for (let k = Math.min(s.length - 1, 100); k >= 3; k--) {
        t = t.replaceAll(`${s.slice(0, k)}…`, "•••…");
      }
    }
    return t;
  };
  return { ...push, title: clean(push.title), body: clean(push.body) };
}
