import { browserWords } from "./words.ts";
import type {
  BrowserTabsReply,
  ClientMessageOf,
  Command,
  SessionUpdate,
} from "../../protocol/mod.ts";
import { slotName, updateSlot } from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import { PageAudio } from "./audio.ts";
import { Files } from "./files.ts";
import { endLeftovers } from "./leftover.ts";
import { Profiles } from "./profiles.ts";
import { Surfaces } from "./surface.ts";
import { TabBook } from "./tab_book.ts";
import { browserTools } from "./tools.ts";

/** The seat updates that end a session. */
const SESSION_ENDS = new Set(["releasing", "connection_failed", "session_replaced"]);

/**
 * The browser host: one headless Chromium per profile, streamed to every viewer over
 * forge's own CDP connection and controlled by one, and driven by the seats' agents through
 * Playwright attached beside it (the `browser_*` tools, driver.ts).
 * spec: browser_view .. browser_tabs, binary kinds 1 and 2, respond_browser_hand_off, open_url.
 */
export function create(host: Host) {
  // An extension: each seat's tabs are kept across restarts (tab_book.ts).
  const profiles = new Profiles(host, new TabBook(host.state, host.stateDir, host.log));
  const surfaces = new Surfaces(host, profiles);
  const files = new Files(host, surfaces);
  const audio = new PageAudio(host);
  profiles.hooks = {
    fileChooser: (b, tab, node, multiple) => files.opened(b, tab, node, multiple),
    downloadEvent: (b, method, params) => files.downloadEvent(b, method, params),
    audio: (b) => audio.forHost(b),
    deliverAudio: (b, pcm) => audio.deliver(b, pcm),
  };
  surfaces.onTake = (a) => files.tookControl(a);
  // A missing Chromium is said at boot, not first discovered by a person's attach.
  const chromium = profiles.chromium();
  host.log.info("browser_state", {
    chromium: chromium.bin ?? null,
    why: chromium.bin === null ? chromium.why : null,
  });

  // Chromiums an earlier forge left running (it died without its shutdown) are ended at boot,
  // not only when their profile is next opened.
  void endLeftovers(`${host.stateDir}/browser`, (e, f) => host.log.warn(e, f));

  return {
    verbs: {
      browser_view: (m: ClientMessageOf<"browser_view">, peer: Peer) =>
        surfaces.view(
          peer,
          "browser_view",
          m.seat,
          surfaces.pickByNumber(m.seat, m.tab),
          m.reply_to,
          true,
        ),
      browser_view_page: (m: ClientMessageOf<"browser_view_page">, peer: Peer) =>
        surfaces.view(
          peer,
          "browser_view_page",
          m.seat,
          surfaces.pickByTarget(m.target),
          m.reply_to,
          false,
        ),
      browser_detach: (_m: ClientMessageOf<"browser_detach">, peer: Peer) => {
        surfaces.detach(peer);
      },
      browser_resize: (m: ClientMessageOf<"browser_resize">, peer: Peer) =>
        surfaces.resize(peer, m),
      browser_input: (m: ClientMessageOf<"browser_input">, peer: Peer) => surfaces.input(peer, m),
      browser_control: (m: ClientMessageOf<"browser_control">, peer: Peer) =>
        surfaces.control(peer, m.take),
      browser_nav: (m: ClientMessageOf<"browser_nav">, peer: Peer) => surfaces.nav(peer, m.back),
      browser_file_answer: (m: ClientMessageOf<"browser_file_answer">, peer: Peer) =>
        files.answer(peer, m),
      browser_tabs: (m: ClientMessageOf<"browser_tabs">, peer: Peer) => {
        let body: BrowserTabsReply;
        try {
          const browser = profiles.forSeat(m.seat);
          profiles.follow(browser, peer);
          body = { ok: true, tabs: browser.list() };
        } catch (err) {
          const why = (err as Error).message;
          if (m.reply_to == null) throw new Refusal("browser_tabs", `browser_tabs: ${why}`, m.seat);
          body = { ok: false, why };
        }
        if (m.reply_to != null) peer.send({ kind: "reply", reply_to: m.reply_to, body });
      },
    },
    commands: {
      respond_browser_hand_off: (
        c: Extract<Command, { name: "respond_browser_hand_off" }>,
        peer: Peer,
      ) => {
        const { key, id, done } = c.fields;
        host.asks.answer(
          key,
          "browser_hand_off",
          id,
          peer,
          done ? { ending: "answered", answer: true } : { ending: "declined", note: "not now" },
        );
      },
      open_url: async (c: Extract<Command, { name: "open_url" }>) => {
        const url = c.fields.url;
        if (!/^https?:\/\//i.test(url)) {
          throw new Refusal("open_url", `open_url: ${JSON.stringify(url)} is not an http(s) URL`);
        }
        const org = host.config().orgs[0];
        if (!org) throw new Refusal("open_url", "open_url: forge.toml declares no org");
        const browser = profiles.byKey(`${org.name}/${org.browser_profile ?? "default"}`);
        try {
          await browser.openTab(url);
        } catch (err) {
          throw new Refusal("open_url", `open_url: ${browserWords(err, host.log)}`);
        }
      },
    },
    subjects: {},
    tools: browserTools(host, profiles, files),
    onUpdate: (u: SessionUpdate) => {
      // spec: browser_tabs ("a tab ... closes with its session"): a session that released,
      // failed or was replaced lets its tabs go.
      const key = updateSlot(u);
      if (!key || !SESSION_ENDS.has(u.name)) return;
      const key_ = profiles.keyFor(key);
      const browser = key_ ? profiles.hosts.get(key_) : undefined;
      if (browser?.up) void browser.closeSeat(key);
      // With the host down its tabs are only kept: the session's end lets them go there too.
      else if (key_) profiles.book?.forget(key_, slotName(key));
    },
    /** The hosts by profile, for tests and benches that look under the tools. */
    profiles,
    stop: async () => {
      await profiles.closeAll();
      await profiles.book?.flushed();
      await audio.stop();
    },
  };
}
