import { type Slot, slotName } from "../../protocol/mod.ts";
import type { Host, Peer } from "../../server/subsystem.ts";
import type { HostAudio } from "./audio.ts";
import type { CdpBody } from "./cdp.ts";
import { BrowserHost } from "./host.ts";
import { chromiumPath } from "./launch.ts";
import type { Tab } from "./tab.ts";
import type { TabBook } from "./tab_book.ts";
import { reopenTabs, seatTabsOf } from "./tab_keep.ts";

/** Hooks the file and audio parts plug into every host. */
export interface ProfileHooks {
  fileChooser(host: BrowserHost, tab: Tab, backendNodeId: number, multiple: boolean): void;
  downloadEvent(host: BrowserHost, method: string, params: CdpBody): void;
  audio(host: BrowserHost): Promise<HostAudio>;
  deliverAudio(host: BrowserHost, pcm: Uint8Array): void;
}

/** A profile key's directory name: the key with anything but word characters made safe. */
function dirName(key: string): string {
  return key.split("/").map((p) => p.replace(/[^\w.-]/g, "_")).join("/");
}

/**
 * Every profile's host, made on first use, and the connections following each profile's rows.
 * spec: browser_tabs ("a seat's profile is forge.toml's, resolved from the project's
 * browser_profile, else its org's, else default"; the key is `<org>/<name>`).
 */
export class Profiles {
  readonly hosts = new Map<string, BrowserHost>();
  #followers = new Map<string, Set<Peer>>();
  #pushQueued = new Set<string>();
  hooks: ProfileHooks | null = null;

  /** `book`: each seat's tabs kept across a host's runs (tab_book.ts); none keeps nothing. */
  constructor(private readonly host: Host, readonly book: TabBook | null = null) {}

  /** The Chromium a host runs, or the sentence saying why there is none. */
  chromium(): { bin: string } | { bin: null; why: string } {
    const configured = this.host.config().areas.browser?.chromium;
    const bin = chromiumPath(typeof configured === "string" ? configured : null);
    if (bin) return { bin };
    return {
      bin: null,
      why: typeof configured === "string"
        ? `browser.chromium names ${configured}, which is not a file on this machine`
        : "chromium is not installed (apt-get install chromium) and browser.chromium is unset",
    };
  }

  /** The profile key a seat's browser resolves to, or null for a seat forge does not know. */
  keyFor(slot: Slot): string | null {
    const org = this.host.config().orgs.find((o) => o.name === slot.org);
    const project = org?.projects.find((p) => p.name === slot.project);
    if (!org || !project) return null;
    return `${org.name}/${project.browser_profile ?? org.browser_profile ?? "default"}`;
  }

  /** The host of a key, made (not started) on first use. */
  byKey(key: string): BrowserHost {
    let h = this.hosts.get(key);
    if (!h) {
      const hooks = () => {
        if (!this.hooks) throw new Error("browser hooks are not wired");
        return this.hooks;
      };
      h = new BrowserHost(
        {
          chromium: () => this.chromium(),
          idleMs: () => {
            const secs = this.host.config().areas.browser?.idle_close_secs;
            return (typeof secs === "number" ? secs : 900) * 1000;
          },
          tabsChanged: (b) => {
            this.push(b);
            // Only what the seats did: a host starting (reopening) or closing moves tabs too.
            if (b.settled) this.book?.record(b.key, seatTabsOf(b));
          },
          reopen: async (b) => {
            if (!this.book) return;
            await this.book.ready;
            const belongs = (seat: Slot) => this.keyFor(seat) === b.key;
            await reopenTabs(b, this.book.of(b.key), this.host.log, belongs);
          },
          fileChooser: (b, t, n, m) => hooks().fileChooser(b, t, n, m),
          downloadEvent: (b, m, p) => hooks().downloadEvent(b, m, p),
          audio: (b) => hooks().audio(b),
          deliverAudio: (b, pcm) => hooks().deliverAudio(b, pcm),
          log: (event, fields) => this.host.log.info(event, fields),
        },
        key,
        this.hosts.size + 1,
        `${this.host.stateDir}/browser/${dirName(key)}`,
      );
      this.hosts.set(key, h);
    }
    return h;
  }

  /** The host of a seat's profile; throws a sentence for a seat forge does not know. */
  forSeat(slot: Slot): BrowserHost {
    const key = this.keyFor(slot);
    if (!key) throw new Error(`${slotName(slot)} is not a seat of a configured project`);
    return this.byKey(key);
  }

  /** Follows a profile's rows from now on. spec: browser_tabs ("the ask is the subscription"). */
  follow(host: BrowserHost, peer: Peer): void {
    let set = this.#followers.get(host.key);
    if (!set) this.#followers.set(host.key, set = new Set());
    if (set.has(peer)) return;
    set.add(peer);
    peer.onClose(() => set!.delete(peer));
  }

  /** Pushes a profile's rows to its followers, once per turn of the event loop. */
  push(host: BrowserHost): void {
    if (this.#pushQueued.has(host.key)) return;
    this.#pushQueued.add(host.key);
    queueMicrotask(() => {
      this.#pushQueued.delete(host.key);
      const list = host.list();
      for (const peer of this.#followers.get(host.key) ?? []) {
        peer.send({ kind: "browser_tabs", ...list });
      }
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.hosts.values()].map((h) => h.close()));
  }
}
