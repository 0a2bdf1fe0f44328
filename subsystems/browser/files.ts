import type { ClientMessageOf, ServerMessage } from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import type { CdpBody } from "./cdp.ts";
import type { BrowserHost } from "./host.ts";
import type { Attachment, Surfaces } from "./surface.ts";
import type { Tab } from "./tab.ts";

/** spec: browser_file_answer ("past 16 files or 8 MiB the whole answer is a dismiss"). */
export const MAX_CHOSEN_FILES = 16;
export const MAX_CHOSEN_BYTES = 8 * 1024 * 1024;
/** spec: browser_download ("a file past 32 MiB is refused in words"). */
export const MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;
/** Finished downloads a profile keeps for a controller before the oldest is lost. */
const DOWNLOAD_BACKLOG = 8;

/** A page's outstanding file chooser. */
export interface Chooser {
  id: string;
  browser: BrowserHost;
  tab: Tab;
  backendNodeId: number;
  multiple: boolean;
}

interface Finished {
  tab: number;
  name: string;
  path: string;
}

function bytesOf(b64: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) return null;
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    // Not base64 after all: no bytes, and the caller says what it could not read.
    return null;
  }
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** A chosen file's name as a plain file name: no directory, nothing hidden. */
function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[^\w. -]/g, "_").replace(/^\.+/, "");
  return clean.length > 0 ? clean.slice(0, 120) : "file";
}

/**
 * The file chooser and downloads (spec: browser_file_dialog, browser_file_answer,
 * browser_download): the chooser asks only the tab's controller and takes only its outstanding
 * id; a finished download goes to a controller, waits in a small backlog when none holds the
 * role, and the server's copy is removed once it has crossed.
 */
export class Files {
  readonly choosers = new Map<string, Chooser>();
  #downloads = new Map<string, { name: string; tab: number }>();
  #backlog = new Map<string, { items: Finished[]; lost: number }>();

  constructor(private readonly host: Host, private readonly surfaces: Surfaces) {}

  /** The outstanding chooser of a tab, if any. */
  chooserOf(tab: Tab): Chooser | undefined {
    return [...this.choosers.values()].find((c) => c.tab === tab);
  }

  /** A page asked for a file: ask the controller, or wait for the agent's upload. */
  opened(browser: BrowserHost, tab: Tab, backendNodeId: number, multiple: boolean): void {
    for (const [id, c] of this.choosers) if (c.tab === tab) this.choosers.delete(id);
    const id = crypto.randomUUID();
    this.choosers.set(id, { id, browser, tab, backendNodeId, multiple });
    tab.viewers.sendController({ kind: "browser_file_dialog", id, tab: tab.number, multiple });
  }

  /** Hands the chosen paths to the page; an empty list dismisses. */
  async give(c: Chooser, paths: string[]): Promise<void> {
    this.choosers.delete(c.id);
    if (paths.length === 0) return;
    await c.browser.cdp?.send("DOM.setFileInputFiles", {
      files: paths,
      backendNodeId: c.backendNodeId,
    }, c.tab.session);
  }

  /** browser_file_answer: controller only, outstanding id only, checked before a byte is written. */
  async answer(peer: Peer, m: ClientMessageOf<"browser_file_answer">): Promise<void> {
    const refuse = (why: string) => {
      throw new Refusal("browser_file_answer", `browser_file_answer: ${why}`);
    };
    const a = this.surfaces.attached.get(peer.id);
    if (!a) return refuse("this connection is not attached to a browser tab");
    if (a.tab.viewers.controller !== a.viewer) {
      return refuse("only the tab's controller answers its file chooser");
    }
    const c = this.choosers.get(m.id);
    if (!c || c.tab !== a.tab) {
      return refuse(`no file chooser of this tab is waiting on id ${m.id}`);
    }
    const decoded: { name: string; bytes: Uint8Array }[] = [];
    for (const f of m.files) {
      const bytes = bytesOf(f.data);
      if (!bytes) return refuse(`the data of ${JSON.stringify(f.name)} is not base64`);
      decoded.push({ name: safeName(f.name), bytes });
    }
    const total = decoded.reduce((n, f) => n + f.bytes.length, 0);
    const tooMany = decoded.length > MAX_CHOSEN_FILES || total > MAX_CHOSEN_BYTES ||
      (!c.multiple && decoded.length > 1);
    if (tooMany || decoded.length === 0) {
      this.host.log.info("browser_file_dismissed", {
        id: m.id,
        files: decoded.length,
        bytes: total,
      });
      return await this.give(c, []);
    }
    const dir = `${c.browser.dir}/uploads/${m.id}`;
    await Deno.mkdir(dir, { recursive: true });
    const paths: string[] = [];
    for (const [i, f] of decoded.entries()) {
      const path = `${dir}/${
        decoded.slice(0, i).some((g) => g.name === f.name) ? `${i}-` : ""
      }${f.name}`;
      await Deno.writeFile(path, f.bytes);
      paths.push(path);
    }
    await this.give(c, paths);
  }

  /** Browser.downloadWillBegin / downloadProgress of one host. */
  downloadEvent(browser: BrowserHost, method: string, p: CdpBody): void {
    const guid = String(p.guid);
    if (method === "Browser.downloadWillBegin") {
      const tab = browser.byTarget(String(p.frameId));
      this.#downloads.set(guid, {
        name: String(p.suggestedFilename ?? "download"),
        tab: tab?.number ?? 0,
      });
      return;
    }
    if (method !== "Browser.downloadProgress" || p.state === "inProgress") return;
    const d = this.#downloads.get(guid);
    this.#downloads.delete(guid);
    if (!d) return;
    const path = `${browser.dir}/downloads/${guid}`;
    if (p.state !== "completed") {
      // A download that did not complete may have left nothing to remove.
      void Deno.remove(path).catch(() => {});
      return;
    }
    const backlog = this.#backlog.get(browser.key) ?? { items: [], lost: 0 };
    this.#backlog.set(browser.key, backlog);
    backlog.items.push({ tab: d.tab, name: d.name, path });
    while (backlog.items.length > DOWNLOAD_BACKLOG) {
      const gone = backlog.items.shift()!;
      backlog.lost++;
      // Counted as lost above; a file already gone is no further loss.
      void Deno.remove(gone.path).catch(() => {});
    }
    void this.deliver(browser);
  }

  /** Sends each waiting download to its tab's controller; a lost notice to any controller. */
  async deliver(browser: BrowserHost): Promise<void> {
    const backlog = this.#backlog.get(browser.key);
    if (!backlog) return;
    if (backlog.lost > 0) {
      const to = [...browser.tabs.values()].find((t) => t.viewers.controller !== null);
      const notice: ServerMessage = {
        kind: "browser_download",
        name: "",
        data: null,
        error: `${backlog.lost} download(s) were lost before a controller read them`,
        dropped: true,
        lost: backlog.lost,
      };
      if (to?.viewers.sendController(notice)) backlog.lost = 0;
    }
    for (const item of [...backlog.items]) {
      const tab = browser.tabs.get(item.tab);
      if (!tab || tab.viewers.controller === null) continue;
      backlog.items.splice(backlog.items.indexOf(item), 1);
      // Read, remove, then send: the server's copy is gone by the time the frame crosses.
      const size = (await Deno.stat(item.path).catch(() => null))?.size ?? -1;
      const bytes = size >= 0 && size <= MAX_DOWNLOAD_BYTES
        // A file that went under us is a download with no bytes: the error below says so.
        ? await Deno.readFile(item.path).catch(() => null)
        : null;
      // The bytes are read; a copy that will not go is only a file in forge's own state dir.
      await Deno.remove(item.path).catch(() => {});
      const error = size > MAX_DOWNLOAD_BYTES
        ? `${item.name} is ${size} bytes, past the 32 MiB a download may carry`
        : bytes === null
        ? "the server's copy of the download is gone"
        : null;
      const frame: ServerMessage = {
        kind: "browser_download",
        tab: item.tab,
        name: item.name,
        data: bytes === null ? null : toBase64(bytes),
        error,
        dropped: false,
      };
      tab.viewers.sendController(frame);
    }
  }

  /** A take landed: the new controller is asked the tab's chooser and handed its downloads. */
  tookControl(a: Attachment): void {
    const c = this.chooserOf(a.tab);
    if (c) {
      a.tab.viewers.sendController({
        kind: "browser_file_dialog",
        id: c.id,
        tab: a.tab.number,
        multiple: c.multiple,
      });
    }
    void this.deliver(a.browser);
  }
}
