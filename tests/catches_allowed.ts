/**
 * The catches in product code that drop their error on purpose, by `path#function`, each with
 * its reason (the words at the site). tests/catches_test.ts holds the code to this list: a new
 * dropping catch must log its cause or be argued here, and an entry whose catch went away must
 * go too. Reasons fall in a few kinds: a probe whose failure is the answer (a stat, a realPath),
 * a serialising queue's own copy of a promise whose caller hears the failure, a process or
 * stream already gone, clean-up after a failure that is itself reported, and foreign text whose
 * parser's words stay out of forge's.
 */
export const ALLOWED: Record<string, string> = {
  "server/config/secrets.ts#decoded":
    "A password whose escapes do not decode is looked for as typed: the encoded form is listed.",
  "server/board/schedule.ts#whyNot":
    "The parser's words stay out: the field it could not read is named, and what it takes.",
  "subsystems/browser/tools.ts#browser_wait_for":
    "Heard by the race below; a wait that ended first leaves it with no listener.",
  "subsystems/browser/driver.ts#blocker":
    "Playwright waits on every page as it attaches: a page that stopped answering meanwhile is named rather than Playwright's timeout.",
  "subsystems/browser/driver_worker.ts#read": "a session already gone needs no detach",
  "subsystems/browser/leftover.ts#endLeftover":
    "A probe: a profile with no lock has no Chromium holding it, so nothing is ended.",
  "subsystems/browser/leftover.ts#endLeftovers":
    "A probe: no browser state yet means no Chromium was ever started here.",
  "subsystems/browser/leftover.ts#hostname":
    "Not allowed to ask the host name: no lock can be told as this host's, so nothing is ended.",
  "server/areas/cli_version.ts#readLatestCliVersion":
    "The parser's words stay out: the answer said is that it is not JSON, the output its cause.",
  "server/areas/service_status.ts#readStatusPage":
    "The body is not read: a stream already over needs no cancel, and the status says it all.",
  "server/areas/service_status.ts#pageName":
    "A URL that does not parse is named by its key: the loader already refused its text.",
  "subsystems/browser/driver_calls.ts#within":
    "The race's own copy: the caller hears `work`'s failure; one after the bound has no listener.",
  "subsystems/browser/driver_ops.ts#title":
    "A title the page will not give in time is left out: the snapshot answers without it.",
  "subsystems/browser/driver_passwords.ts#maskPasswords":
    "A frame that navigated under the first look is looked at once more; a second failure refuses.",
  "subsystems/browser/page_ops.ts#evaluate":
    "The race's own copy: the caller hears `asked`'s failure; one after the bound has no listener.",
  "subsystems/browser/snapshot_lines.ts#unquoteValue":
    "A value that is not quoted as Playwright quotes is shown as it stands.",
  "subsystems/browser/tab_health.ts#readyForAttach":
    "A page that closed meanwhile has no script left to stop: the note is still right.",
  "server/areas/session_list.ts#namesOf":
    "Gone since the catalog listed it: a row with nothing to call it.",
  "server/areas/session_list.ts#parsed":
    "A torn or damaged line names nothing; the rest still may.",
  "server/areas/project_catalog.ts#rows":
    "No folder: nothing has run here under this config directory.",
  "server/areas/project_catalog.ts#stats":
    "A transcript that went between the listing and its stat is simply not a row.",
  "server/areas/project_catalog.ts#resolved":
    "The CLI names its folder by the real path; a path that will not resolve is named as given.",
  "server/board/cron.ts#tick":
    "Still damaged: nothing fires over a file forge could not read (the error field says",
  "server/build_info.ts#buildInfo": "No git, or not a checkout: the stamp says so.",
  "server/config/guards.ts#settingsGuard":
    "Text the loader refuses is the validator's to name (it runs next): no guard applies.",
  "server/config/write/writer.ts#settled":
    "The queue's own copy: the caller awaits `run` and hears its failure as a refusal.",
  "server/config/write/writer.ts#resolveTarget":
    "Nothing at the path at all (not even a dangling link): it is its own target.",
  "server/config/write/writer.ts#syncDir":
    "Some file systems refuse fsync on a directory; the rename is still atomic there.",
  "server/config/write/writer.ts#removeQuietly":
    "Already gone; nothing else can be done about a temp file we cannot remove.",
  "server/connection.ts#end": "Already gone: nothing more to do for the socket itself.",
  "server/frame_guard.ts#topField":
    "Escapes cut at the bound do not parse: the raw characters name the field well enough.",
  "server/gateway/login.ts#credentialsStamp":
    "No file (never logged in, or a login held in a keychain): nothing has landed here.",
  "server/gateway/probe.ts#probeAccount": "the body is not read: a stream already over is fine",
  "server/gateway/seat_facts.ts#readOauthFacts":
    "No credentials file (a token account, or never logged in): no OAuth facts to show.",
  "server/gateway/seat_facts.ts#readOauthFacts[2]":
    "The CLI's own file, in a shape this reader does not know: no facts, rather than wrong ones.",
  "server/gateway/usage_cache.ts#drain":
    "The keeper logged the refusal or the failed write; a cache that is not written costs",
  "server/lock.ts#run":
    "The queue's own copy: the caller's `run` carries the failure; the queue carries on.",
  "server/lock.ts#tail":
    "The queue's own copy: the caller's `run` carries the failure; the key's queue carries on.",
  "server/log.ts#append":
    "A log that cannot be written must never take the server down; stderr still carries it.",
  "server/log.ts#close": "Already closed.",
  "server/log.ts#statSize":
    "No log yet: it starts at zero (an unreadable one fails at the append, which says so).",
  "server/reused_reads.ts#onAbort":
    "Cancelling a stream that already ended or failed changes nothing: the read says how it ended.",
  "server/reused_reads.ts#reusedReads":
    "As above: the stream's own failure is what the caller already heard.",
  "server/reused_reads.ts#byobReader": "not a byte stream",
  "server/state/keeper.ts#parse":
    "The parser's own words stay out: what a person needs is that the JSON is not whole.",
  "server/state/keeper.ts#digestNow":
    "A probe: an unreadable file is not unchanged, and the read that follows names why.",
  "server/state/kept_log.ts#record": "Not JSON: the caller counts it as damage.",
  "server/state/kept_log.ts#utf8": "Not UTF-8: the caller reads it as a line that is not a record.",
  "server/workers/git.ts#removeWorktree":
    "git's words are the reason: the hand removal only tried again for a worktree git forgot.",
  "server/workers/workers.ts#undo": "the keeper logged it",
  "server/workspace/claude/ndjson.ts#drain":
    "the pipe broke: the process is gone, keep what we have",
  "server/workspace/claude/process.ts#readStdout":
    "aborted after exit, or the pipe broke: the stream is over either way",
  "server/workspace/claude/process.ts#kill": "already exited",
  "server/state/owner.ts#release": "A descriptor already closed has already let its lock go.",
  "server/state/owner.ts#holderPid":
    "The refusal is said without the holder's pid when its file cannot be read; the lock decided.",
  "server/workspace/claude/stdin_writer.ts#close": "already closed by the other side",
  "server/workspace/cli.ts#readCliVersion":
    "No version to show (home says unknown); a CLI that will not run fails its seat in words.",
  "server/workspace/conversation/rows.ts#lineFrame": "torn or partial: skipped, not fatal",
  "server/workspace/seats/call_output.ts#readCallOutput":
    "spec: a call whose output file is gone answers `none`, which is the reason itself.",
  "server/workspace/seats/call_output.ts#composedPath": "not this slug",
  "server/workspace/seats/call_output.ts#composedPath[2]": "no root: nothing launched here",
  "server/workspace/seats/launch.ts#cwd":
    "The CLI names its folder by the real path; a path that will not resolve is named as given.",
  "server/path_kind.ts#statOf":
    "A probe: nothing there (or nothing forge may see) is neither a file nor a directory.",
  "server/path_kind.ts#statSyncOf": "As above, for the synchronous probe.",
  "server/workspace/seats/proc_files.ts#procTable": "an empty table: nothing walks",
  "server/workspace/seats/proc_files.ts#childrenOf": "the process ended",
  "server/workspace/seats/proc_files.ts#readSync":
    "A process that ended between the listing and the read: nothing to report for it.",
  "server/workspace/seats/proc_files.ts#read": "As above: the process ended under the read.",
  "server/workspace/seats/procfs.ts#run":
    "No `ps` on this machine: the probe falls back, and says which source it used.",
  "server/workspace/stamps.ts#thread":
    "No thread to be had (a runtime that refuses workers): every stamp is stat'ed here.",
  "server/workspace/stamps.ts#statStamp":
    "A probe: a path that will not stat has no stamp, which is the answer.",
  "server/workspace/stamps_worker.ts#stamp":
    "A probe: a path that will not stat has no stamp, which is the answer.",
  "server/workspace/work.ts#scanWork":
    "spec: a working tree that cannot be stat'ed is `gone`; the gate is the reason.",
  "server/workspace/work.ts#scanWork[2]":
    "git would not run: the gate `scanner_failed` is what the row says.",
  "subsystems/browser/audio.ts#start": "the reader closed",
  "subsystems/browser/audio.ts#stop": "gone",
  "subsystems/browser/driver_ops.ts#n":
    "frame since gone, resolves to nothing (or throws): both are stale.",
  "subsystems/browser/driver_ops.ts#out":
    'A frame that navigated away or will not run scripts has no form to list: "".',
  "subsystems/browser/driver_worker.ts#nodeExistsSync":
    "a probe: a path Deno will not stat does not exist for Playwright",
  "subsystems/browser/driver_worker.ts#targetIdOf": "a session already gone needs no detach",
  "subsystems/browser/driver_worker.ts#hidden":
    "A page that closed or navigated under the check is not brought forward: nothing to show.",
  "subsystems/browser/driver_worker.ts#toFront": "closed meanwhile: nothing to raise",
  "subsystems/browser/driver_worker.ts#(top)":
    "keeps an unanswered failure from ending the worker.",
  "subsystems/browser/files.ts#bytesOf":
    "Not base64 after all: no bytes, and the caller says what it could not read.",
  "subsystems/browser/files.ts#downloadEvent":
    "A download that did not complete may have left nothing to remove.",
  "subsystems/browser/files.ts#downloadEvent[2]":
    "Counted as lost above; a file already gone is no further loss.",
  "subsystems/browser/files.ts#size":
    "Read, remove, then send: the server's copy is gone by the time the frame crosses.",
  "subsystems/browser/files.ts#bytes":
    "A file that went under us is a download with no bytes: the error below says so.",
  "subsystems/browser/files.ts#deliver":
    "The bytes are read; a copy that will not go is only a file in forge's own state dir.",
  "subsystems/browser/host.ts#closeTab":
    "A target already gone is closed; the tab is dropped below either way.",
  "subsystems/browser/host.ts#close": "a start that failed was told by its own caller",
  "subsystems/browser/host.ts#asked":
    "A browser that will not answer the close is killed below, which is the fallback.",
  "subsystems/browser/launch.ts#launchChromium": "no lock left: nothing to clear",
  "subsystems/browser/launch.ts#launchChromium[2]": "closed",
  "subsystems/browser/launch.ts#killGroup": "already gone",
  "subsystems/browser/launch.ts#killGroup[2]": "already gone",
  "subsystems/browser/surface.ts#view":
    "never waits on it (a page dialog holds a screenshot until it closes).",
  "subsystems/browser/tab.ts#refreshTitle":
    "a page that will not say its title keeps the one it had",
  "subsystems/browser/tab_cast.ts#frame":
    "an ack to a tab that closed: the frame below is its last",
  "subsystems/browser/tab_cast.ts#castAndStill":
    "A retry that fails schedules the next (up to its tries); it has nothing else to say.",
  "subsystems/browser/tab_cast.ts#serial":
    "The chain's own copy: the caller awaits `run` and hears its failure.",
  "subsystems/browser/tab_cast.ts#shot": "a tab mid-navigation has no still: answered false",
  "subsystems/browser/tab_cast.ts#stopCastIfUnwatched":
    "Stopping a cast the tab already ended (it closed) changes nothing.",
  "subsystems/browser/tab_cast.ts#resizeNow": "As above: a cast already over needs no stop.",
  "subsystems/browser/tab_history.ts#h": "a closing tab: no history to step",
  "subsystems/browser/tools_net.ts#r":
    "evicted from Chromium's buffer: the body is no longer there",
  "subsystems/connectors/gotify_client.ts#session":
    "not JSON: refused below with the same words as a wrong shape",
  "subsystems/connectors/gotify_client.ts#get": "not JSON: the text is the reason",
  "subsystems/connectors/slack_files.ts#stat":
    "A probe: a path that cannot be stat'ed is refused below as not a readable file.",
  "subsystems/connectors/slack_hub.ts#info":
    "A name is a nicety: a user Slack will not describe is shown by their id.",
  "subsystems/connectors/slack_hub.ts#poll": "names only: the conversation ids still work",
  "subsystems/connectors/slack_hub.ts#followThreads":
    "a thread Slack will not read: what was delivered stays marked, the rest is tried next poll",
  "subsystems/connectors/slack_post.ts#page":
    "Not a thread's parent: `conversations.replies` refuses it, and the history holds it.",
  "subsystems/dictate/capture.ts#constructor":
    "the recorder's pipe broke: it exited, which stop() reports",
  "subsystems/dictate/capture.ts#stop": "Already gone.",
  "subsystems/dictate/engines/pool.ts#spawn":
    "The load's failure reaches whoever awaits `loaded`; the pool only lets the slot go.",
  "subsystems/dictate/engines/whisper.ts#decode": "never written: nothing to remove",
  "subsystems/dictate/models/store.ts#install": "the copy's failure is what is reported",
  "subsystems/dictate/models/store.ts#install[2]": "the digest's mismatch is what is reported",
  "subsystems/dictate/read_aloud.ts#stop": "never written, or the index names it",
  "subsystems/notify/http.ts#hostOf":
    "Not a URL (the loader refused it already): said as such, never the parser's words.",
  "subsystems/notify/http.ts#serverWords":
    "A body that is not JSON adds no words of the server's own: the status says enough.",
  "subsystems/plugins/actions.ts#repairMarketplace":
    "A corrupt clone is not fixed by the CLI's update alone (measured); deleting it re-clones.",
  "subsystems/plugins/cli.ts#runPluginCli":
    "A config dir that cannot be made fails the CLI below, which says so in its own exit.",
  "subsystems/plugins/cli.ts#kill": "already gone",
  "subsystems/plugins/cli.ts#runPluginCli[2]": "not JSON: the exit code and stderr are the outcome",
  "subsystems/plugins/files.ts#readJson":
    "The parser's words stay out: not valid JSON is the reason.",
  "subsystems/plugins/files.ts#entries": "absent or unreadable: no entries",
  "subsystems/plugins/plugin_dir.ts#cloneHead": "no clone here: no head to show",
  "subsystems/plugins/plugin_dir.ts#cloneHead[2]":
    "A packed ref has no loose file: packed-refs holds it.",
  "subsystems/plugins/plugin_dir.ts#cloneHead[3]":
    "no packed-refs either: the head names a ref that is not there",
  "subsystems/plugins/watch.ts#open":
    "absent yet: the config dir's watch (or the next action) re-arms it",
  "subsystems/plugins/watch.ts#open[2]":
    "the watcher closed under us (stop, or its directory vanished)",
  "subsystems/plugins/watch.ts#stop": "already closed",
  "subsystems/review/base.ts#settled":
    "Settled either way: the refresh's own failure was told where it happened.",
  "subsystems/review/document.ts#realBases":
    "A root that does not resolve holds no document: it is left out of the bases.",
  "subsystems/review/document.ts#readDocument":
    "The decoder's words stay out: not UTF-8 is the reason.",
  "subsystems/review/document.ts#realTree":
    "A tree that will not resolve is compared as given (it then holds nothing of `real`).",
  "subsystems/review/file_index.ts#walk":
    "a directory that vanished or cannot be listed holds nothing we can name",
  "subsystems/review/git.ts#kill": "already gone",
  "subsystems/review/pr.ts#timer": "gone",
  "subsystems/review/pr.ts#parsePrList":
    "gh's output in a shape this reader does not know: unknown, never a wrong PR.",
  "subsystems/review/pr.ts#parseCloses": "As above: unknown rather than wrong.",
  "subsystems/review/refs.ts#read":
    "The refs read straight from the files is a shortcut: git below answers when it fails.",
  "subsystems/review/refs.ts#st": "A probe: no `.git` is not a repository.",
  "subsystems/review/refs.ts#exists": "a probe: absence is the answer",
  "subsystems/review/scan.ts#topLevel": "No `.git` here: git says where the top is, if anywhere.",
  "subsystems/review/untracked.ts#readOnce":
    "A file that went after the status: no lines and no content, as for a deleted file.",
  "subsystems/review/untracked.ts#untrackedHead":
    "A file that went between the status and the read: no content, as for a deleted file.",
  "subsystems/review/watch.ts#stop": "Already closed.",
  "subsystems/terminal/proc.ts#procSource":
    "No /proc here: `ps` is the source, and the probe says so.",
  "subsystems/terminal/proc.ts#readStat":
    "The process ended under the read: nothing to report for it.",
  "subsystems/terminal/terminal.ts#close": "Already gone between the check and the signal.",
  "subsystems/terminal/termios.ts#openLibc":
    "Not glibc, or no --allow-ffi: the caller falls back to reading the prompt text.",
  "subsystems/usage/scan_threads.ts#take":
    "A warm-up read: a file that will not open is read (and reported) by the scan itself.",
  "subsystems/usage/transcript.ts#line":
    "Counted: the report's skipped lines say how many did not parse.",
  "subsystems/vault/api.ts#readJson":
    "The parser's words stay out: not what the server sends is the reason, named by the request.",
  "subsystems/vault/calls.ts#vault__attachment":
    "Not text: the bytes go as base64, which the prefix says.",
  "subsystems/vault/cards.ts#fill":
    "The card keeps what the call itself said; the approval's run reports any failure.",
  "subsystems/vault/mod.ts#checkServerUrl":
    "The URL parser's words stay out: not a URL is the reason.",
  "subsystems/voice/engines/festival.ts#render": "no clip was written: nothing to remove",
  "subsystems/voice/engines/festival.ts#constructor":
    "the pipe closes with the process; its exit is what is reported",
  "subsystems/voice/engines/festival.ts#end": "already gone",
  "subsystems/voice/engines/flite_wasi_worker.ts#(top)":
    "A scratch dir that will not go is a temp file left in the system's tmp, nothing more.",
  "subsystems/voice/queue.ts#queue":
    "The queue's own copy: the caller's `done` carries the failure; the queue carries on.",
  "tools/launch.ts#(top)": "The child already ended.",
  "tools/permissions.ts#connectorHosts":
    "not a URL: the loader refused it already, no host to allow",
  "tools/permissions.ts#upstreamHost": "not a URL: the loader refused it already, no host to allow",
  "tools/permissions.ts#vaultNet": "the vault refuses the URL in its own words at use",
  "tools/permissions.ts#directoryMarketplaces":
    "no marketplace file in this config dir (or not one the CLI wrote whole)",
};
