import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { AttachButton, AttachedImages, pastedImages, useAttachments } from "./attach.tsx";
import { DictateAxesPicker } from "./dictate_axes.tsx";
import { MicButton, pushToTalk } from "./mic.tsx";
import { SlashList, useSlashMenu } from "./slash_menu.tsx";
import { client, useApp } from "./use.ts";
import {
  coarsePointer,
  composerHint,
  macPlatform,
  pushToTalkWords,
  returnSends,
} from "../model/composer_keys.ts";
import { Said } from "../draw/said.tsx";

/**
 * The composer: send a prompt, dictate into it (the landed words are placed here for editing,
 * and a landing carried across a reload is read back from the record's `notice`), see the queued
 * prompts (and take one back), cancel the turn, attach images picked or pasted. spec: session >
 * composer; dictate_stream; prompt (`attachments`).
 */
export function Composer() {
  const s = useApp();
  const seat = s.seat!;
  const [text, setText] = useState("");
  const images = useAttachments();
  const key = seat.slot;
  // Read once: a phone stays a phone while its composer is open.
  const coarse = useMemo(coarsePointer, []);
  const box = useRef<HTMLTextAreaElement>(null);
  const composer = seat.record?.composer;
  // A key talks only where the server dictates (home > dictate.enabled), as the mic button does.
  const dictation = s.home?.dictate.enabled === true;
  const bind = dictation ? composer?.bind ?? "off" : "off";
  const ptt = useMemo(
    () => pushToTalk(bind, composer?.mode ?? "auto"),
    [bind, composer?.mode],
  );
  const pttWords = composer
    ? pushToTalkWords(composer.bind, composer.mode, { dictation, mac: macPlatform() })
    : null;

  // A take's words land here for editing before they are sent.
  const landed = s.take?.landed ?? null;
  useEffect(() => {
    if (landed === null) return;
    setText((t) => (t.trim() ? `${t.trimEnd()} ${landed}` : landed));
    client().dictation.consumed();
    box.current?.focus();
  }, [landed]);
  // A landing nobody sent is carried by the record: a reload puts it back in the box.
  const carried = seat.landed?.surface === "composer" || seat.landed?.surface === null
    ? seat.landed.text
    : null;
  useEffect(() => {
    if (carried && !text) setText(carried);
  }, [carried]);

  // A prompt pressed while the socket is down is not sent and not queued (a queued prompt
  // could land long after the person stopped meaning it): the words stay in the box, and the
  // composer says they were not sent.
  const [unsent, setUnsent] = useState(false);
  // A prompt forge refused (a seat with no session): its words come back into the box, before
  // anything typed since, with forge's reason (model/sent_prompts.ts).
  const [refused, setRefused] = useState<string | null>(null);
  const returned = seat.prompts.returned;
  useEffect(() => {
    if (!returned) return;
    setText((t) => (t.trim() ? `${returned.text}\n${t}` : returned.text));
    if (returned.attachments.length > 0) images.set(returned.attachments);
    setRefused(returned.why);
    seat.prompts.took();
  }, [returned]);
  const slash = useSlashMenu(text, seat.slashCommands, setText);
  const send = () => {
    const words = text.trim();
    if (!words) return;
    const attached = images.attached;
    const attachments = attached.map((a) => a.attachment);
    const sent = client().command("prompt", { key, text: words, attachments });
    setUnsent(!sent);
    setRefused(null);
    if (sent) {
      seat.prompts.sent(words, attached);
      setText("");
      images.set([]);
    }
  };
  return (
    <div class="composer">
      {seat.queue.length > 0 && (
        <ul class="queue" data-testid="queue">
          {seat.queue.map((q) => (
            <li key={q.uuid}>
              <span class="source">{q.source}</span> {q.text}
              <button
                type="button"
                onClick={() => client().command("cancel_queued_prompt", { key, uuid: q.uuid })}
              >
                take back
              </button>
            </li>
          ))}
        </ul>
      )}
      <AttachedImages a={images} />
      <SlashList menu={slash} refocus={() => box.current?.focus()} />
      <textarea
        ref={box}
        data-testid="composer"
        placeholder={composerHint(coarse)}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setUnsent(false);
          setRefused(null);
        }}
        onKeyDown={(e) => {
          if (ptt.keydown(e)) return e.preventDefault();
          if (slash.keydown(e)) return e.preventDefault();
          if (returnSends(e, coarse)) {
            e.preventDefault();
            send();
          }
        }}
        onKeyUp={(e) => {
          if (ptt.keyup(e)) e.preventDefault();
        }}
        onPaste={(e) => {
          const pasted = pastedImages(e.clipboardData);
          if (pasted.length === 0) return;
          // A paste of words and an image (copied from a page) keeps its words in the box.
          if (!e.clipboardData?.getData("text/plain")) e.preventDefault();
          void images.add(pasted);
        }}
      />
      {unsent && (
        <p class="error" data-testid="unsent">
          Not sent: the connection to forge is down. Your words are kept here; send again once it is
          back.
        </p>
      )}
      {refused && (
        <p class="error" data-testid="prompt-refused">
          Not sent: <Said text={refused} />. Your words are back in the box.
        </p>
      )}
      <div class="composer-actions">
        <button type="button" data-testid="send" onClick={send} disabled={s.link !== "open"}>
          Send
        </button>
        <AttachButton a={images} />
        <MicButton />
        {s.home?.dictate.enabled && <DictateAxesPicker seat={seat} />}
        {pttWords && <span class="muted ptt" data-testid="ptt">{pttWords}</span>}
        {seat.turnInFlight && (
          <button
            type="button"
            data-testid="cancel"
            onClick={() => client().command("cancel", { key })}
          >
            Cancel turn
          </button>
        )}
      </div>
    </div>
  );
}
