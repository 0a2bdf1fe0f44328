import { CONTEXTS, type DictateAxes, STRUCTURES, STYLINGS } from "../../../../protocol/mod.ts";
import type { Take } from "../net/store.ts";
import { client, useApp } from "./use.ts";
import { Said } from "../draw/said.tsx";

/** The key a composer record's `bind` names, as KeyboardEvent.code spells it. */
export const BIND_CODES: Record<string, string | null> = {
  right_cmd: "MetaRight",
  left_cmd: "MetaLeft",
  off: null,
};

/** A press held longer than this is push-to-talk in `auto` mode; a tap toggles. */
const HOLD_MS = 400;

/**
 * The axes the page dictates with: the seat's own overrides over the greeting's defaults (spec:
 * greeting > settings.dictate - "a client that captures its own audio holds the values in force
 * per seat").
 */
export function axes(): DictateAxes {
  const d = client().state.greeting?.settings.dictate;
  const pick = <T extends string>(v: string | undefined, all: readonly T[], or: T): T =>
    all.find((x) => x === v) ?? or;
  const o = client().state.seat?.overrides ?? {};
  return {
    styling: o.styling ?? pick(d?.styling, STYLINGS, "semi_formal"),
    structure: o.structure ?? pick(d?.structure, STRUCTURES, "prose"),
    context: o.context ?? pick(d?.context, CONTEXTS, "general"),
  };
}

/**
 * The push-to-talk key the composer record names (`bind`, `mode`): `hold` talks while the key is
 * down, `toggle` starts on one press and stops on the next, `auto` is either - a tap toggles, a
 * hold talks until the key comes up. spec: session > composer.
 */
export function pushToTalk(bind: string, mode: string) {
  const code = BIND_CODES[bind] ?? null;
  let downAt = 0;
  let startedHere = false;
  const live = () =>
    client().state.take?.phase === "listening" || client().state.take?.phase === "opening";
  return {
    keydown(e: KeyboardEvent): boolean {
      if (!code || e.code !== code || e.repeat) return false;
      downAt = e.timeStamp;
      const seat = client().state.seat?.slot;
      if (!seat) return false;
      if (live()) {
        if (mode !== "hold") void client().dictation.stop(true);
        startedHere = false;
      } else {
        void client().dictation.start(seat, axes());
        startedHere = true;
      }
      return true;
    },
    keyup(e: KeyboardEvent): boolean {
      if (!code || e.code !== code) return false;
      const held = e.timeStamp - downAt >= HOLD_MS;
      if (startedHere && (mode === "hold" || (mode === "auto" && held))) {
        void client().dictation.stop(true);
      }
      return true;
    },
  };
}

/** The microphone button, the level meter and the take's phase. */
export function MicButton() {
  const s = useApp();
  const seat = s.seat!;
  const take: Take | null = s.take;
  const live = take?.phase === "opening" || take?.phase === "listening";
  const enabled = s.home?.dictate.enabled === true;
  return (
    <span class="mic" data-testid="mic">
      <button
        type="button"
        class={live ? "on" : ""}
        data-testid="mic-button"
        disabled={!enabled || s.link !== "open" || take?.phase === "transcribing"}
        title={enabled
          ? "Dictate (the push-to-talk key works too)"
          : "Dictation is off on this server"}
        onClick={() =>
          live
            ? void client().dictation.stop(true)
            : void client().dictation.start(seat.slot, axes())}
      >
        {live ? "■ Stop" : "Dictate"}
      </button>
      {s.home && !enabled && (
        <span class="muted mic-why" data-testid="mic-why">Dictation is off on this server</span>
      )}
      {live && (
        <button
          type="button"
          data-testid="mic-cancel"
          onClick={() => void client().dictation.stop(false)}
        >
          Cancel
        </button>
      )}
      {take && <TakePhase take={take} />}
    </span>
  );
}

function TakePhase(props: { take: Take }) {
  const t = props.take;
  // The meter spans the take's floor (silence) to 0 dBFS.
  const floor = t.floorDb ?? -60;
  const level = t.peakDb === null ? 0 : Math.max(0, Math.min(1, (t.peakDb - floor) / -floor));
  return (
    <span class={`take ${t.phase}`} data-testid="take" data-phase={t.phase}>
      {t.phase === "opening" && "opening the microphone…"}
      {t.phase === "listening" && (
        <meter data-testid="level" min={0} max={1} value={level} title={`${t.peakDb ?? "no"} dB`} />
      )}
      {t.phase === "transcribing" &&
        `transcribing${t.progress ? ` ${t.progress.done}/${t.progress.total ?? "?"}` : "…"}`}
      {t.phase === "ended" && t.why && (
        <span class="muted" data-testid="take-why">
          <Said text={t.why} />{" "}
          <button type="button" class="dismiss" onClick={() => client().dictation.consumed()}>
            ✕
          </button>
        </span>
      )}
    </span>
  );
}
