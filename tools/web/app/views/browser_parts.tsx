import { useState } from "preact/hooks";
import { toBase64 } from "../net/base64.ts";
import type { BrowserDownload, BrowserPanel } from "../net/store.ts";
import { client } from "./use.ts";

/**
 * The page's file chooser, asked of this page because it drives the tab: the person picks files
 * here and their bytes cross base64, or dismisses it (an empty answer). spec: browser_file_dialog,
 * browser_file_answer.
 */
export function FileChooser(props: { dialog: NonNullable<BrowserPanel["dialog"]> }) {
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  return (
    <div class="notice browser-chooser" role="dialog" data-testid="browser-file-dialog">
      <b>The page asks for {props.dialog.multiple ? "files" : "a file"}.</b>
      <input
        type="file"
        data-testid="browser-file-input"
        multiple={props.dialog.multiple}
        onChange={(e) => setFiles([...((e.target as HTMLInputElement).files ?? [])])}
      />
      <button
        type="button"
        data-testid="browser-file-send"
        disabled={files.length === 0 || sending}
        onClick={async () => {
          setSending(true);
          const answer = await Promise.all(files.map(async (f) => ({
            name: f.name,
            data: toBase64(new Uint8Array(await f.arrayBuffer())),
          })));
          client().browser.answerFiles(answer);
        }}
      >
        Send
      </button>
      <button
        type="button"
        data-testid="browser-file-dismiss"
        onClick={() => client().browser.answerFiles([])}
      >
        Dismiss
      </button>
    </div>
  );
}

/** What the page downloaded: a save link for the bytes that crossed, the reason for the rest. */
export function Downloads(props: { list: BrowserDownload[] }) {
  return (
    <ul class="browser-downloads" data-testid="browser-downloads">
      {props.list.map((d, i) => (
        <li key={i}>
          {d.href
            ? (
              <>
                Downloaded{" "}
                <a href={d.href} download={d.name} data-testid="browser-download">{d.name}</a>
              </>
            )
            : (
              <span class="bad" data-testid="browser-download-error">
                {d.name ? `${d.name} was not saved: ` : ""}
                {d.error}
              </span>
            )}
        </li>
      ))}
    </ul>
  );
}
