import { useState } from "preact/hooks";
import type { SeatModel } from "../model/seat.ts";
import { client, useApp } from "./use.ts";

/**
 * The seat's listen switch (this page's own voice_mode), how many clients listen, the speaking
 * model, and a voice preview. Listening stops when the page leaves the seat (voice_wire.ts).
 * spec: voice_mode, voice_mode_state, voice_preview; home > voice.
 */
export function VoiceSwitch(props: { seat: SeatModel }) {
  const s = useApp();
  const [voice, setVoice] = useState("");
  if (!s.home?.voice.enabled) return null;
  const on = s.voiceOn;
  // The speaking role's read (protocol/dictate_models.ts SpeakingRead), null while [tts] is off.
  const speaking = s.models?.speaking ?? null;
  const voices = speaking?.voices ?? [];
  const model = speaking?.speaking_model ?? s.home.voice.speaking_model ?? null;
  return (
    <span class="voice" data-testid="voice">
      <button
        type="button"
        class={on ? "on" : ""}
        data-testid="voice-switch"
        aria-pressed={on}
        onClick={() => client().voice.set(props.seat.slot, !on)}
      >
        {on ? "Listening" : "Listen"}
      </button>
      <span class="muted" data-testid="voice-listeners">
        {props.seat.listeners} listening
      </span>
      {model && <span class="muted" data-testid="speaking-model">· {model}</span>}
      {s.home.voice.missing && <span class="notice">{s.home.voice.missing}</span>}
      {on && s.voiceMissed && (
        <span class="notice" role="status" data-testid="voice-missed">{s.voiceMissed}</span>
      )}
      {on && (
        <>
          {voices.length > 0 && (
            <select
              value={voice}
              onChange={(e) => setVoice(e.currentTarget.value)}
            >
              <option value="">default voice</option>
              {voices.map((v) => <option value={v} key={v}>{v}</option>)}
            </select>
          )}
          <button
            type="button"
            data-testid="voice-preview"
            onClick={() => client().voice.preview(props.seat.slot, voice || null)}
          >
            Preview
          </button>
        </>
      )}
    </span>
  );
}
