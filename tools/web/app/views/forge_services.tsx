import { useEffect, useState } from "preact/hooks";
import { type NotifyChannel, NotifyTestReply } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";
import { narrow } from "../net/narrow.ts";
import { lostWords } from "../net/replies.ts";

/** What a channel's last test push came to, in words: sent, refused with why, or not answered. */
type TestAnswer = { ok: boolean; words: string };

/**
 * A forge's push channels, each with a test push, and its vault with a lock: the home's `notify`
 * and `vault` rows, drawn on the forge's row of the forges page. Both are read, not pushed (the
 * vault's lock moves no update), so the row reads the home again when it is drawn and after a
 * lock. spec: What a subject carries > home (`vault`); docs/notify.md for `notify` and
 * `notify_test`.
 */
export function ForgeServices(props: { c: ForgeClient }) {
  const { c } = props;
  const home = c.state.home;
  useEffect(() => c.reread("home"), [c]);
  if (!home) return null;
  return (
    <div class="forge-services">
      {home.notify.enabled && <Channels c={c} />}
      {home.vault && <Vault c={c} />}
    </div>
  );
}

const CHANNELS: NotifyChannel[] = ["ntfy", "gotify", "webpush"];

function Channels(props: { c: ForgeClient }) {
  const { c } = props;
  const channels = c.state.home!.notify.channels;
  const [answers, setAnswers] = useState<Partial<Record<NotifyChannel, TestAnswer>>>({});
  const test = async (channel: NotifyChannel) => {
    const answer = await c.commandReply("notify_test", { channel }).then(
      (body): TestAnswer => {
        const read = narrow(NotifyTestReply, "notify_test's reply", body);
        if (!read.ok) return { ok: false, words: read.why };
        return read.data.ok
          ? { ok: true, words: "sent" }
          : { ok: false, words: read.data.why ?? "the channel did not take it" };
      },
      (err): TestAnswer => ({ ok: false, words: lostWords(err) }),
    );
    setAnswers((was) => ({ ...was, [channel]: answer }));
  };
  return (
    <ul class="channels" data-testid="notify-channels">
      {CHANNELS.filter((ch) => channels[ch].state !== "off").map((ch) => {
        const answer = answers[ch];
        return (
          <li key={ch} data-testid={`channel-${ch}`}>
            {ch}: <span class={`channel ${channels[ch].state}`}>{channels[ch].state}</span>
            {channels[ch].why && <span class="muted">({channels[ch].why})</span>}
            <button type="button" data-testid="notify-test" onClick={() => test(ch)}>
              Send a test push
            </button>
            {answer && (
              <span
                class={answer.ok ? "muted" : "error"}
                data-testid="notify-test-answer"
                role={answer.ok ? "status" : "alert"}
              >
                {answer.ok ? "Sent." : `Not sent: ${answer.words}`}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The shared vault session: open or locked (and why), and the person's lock. */
function Vault(props: { c: ForgeClient }) {
  const { c } = props;
  const vault = c.state.home!.vault!;
  return (
    <div class="vault-row" data-testid="vault-row">
      Vault:{" "}
      <span data-testid="vault-state">
        {vault.locked
          ? `locked${vault.lock_reason ? ` (${lockWords(vault.lock_reason)})` : ""}`
          : `open; it locks after ${vault.idle_lock_minutes} idle minutes`}
      </span>
      {!vault.locked && (
        <button
          type="button"
          data-testid="vault-lock"
          onClick={() => {
            // No reply: a refusal is an error frame the notices draw (spec: command >
            // reply_to); the home read after it says whether the session locked.
            if (c.command("vault_lock", null)) c.reread("home");
          }}
        >
          Lock
        </button>
      )}
    </div>
  );
}

/** Why the vault last locked, as a person reads it (protocol/vault.ts names the reasons). */
function lockWords(reason: string): string {
  switch (reason) {
    case "boot":
      return "since forge started";
    case "idle":
      return "left idle";
    case "vault_lock":
      return "locked by hand";
    case "refresh_failed":
      return "its session could not be refreshed";
    case "keys_rotated":
      return "the account's keys were rotated";
    default:
      return reason;
  }
}
