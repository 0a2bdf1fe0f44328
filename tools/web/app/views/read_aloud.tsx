import { useRef, useState } from "preact/hooks";
import { encodeDictationFrame } from "../../../../protocol/mod.ts";
import { type Mic, openMic } from "../audio/mic.ts";
import type { DictateModels } from "../net/narrow.ts";
import { client } from "./use.ts";

/**
 * The read-aloud set: the passage, the recordings kept here (this page's microphone streamed as
 * kind-0 frames between a start and a stop, as a take is), and the bench that scores the model
 * in use on them. spec: dictate_models > read_aloud, bench; dictate_read_aloud_start/_stop.
 */
export function ReadAloud(props: { m: DictateModels }) {
  // protocol/dictate_models.ts's ReadAloudRead: null while the dictate subsystem has no set.
  const set = props.m.read_aloud;
  const mic = useRef<Mic | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  const dictation = props.m.in_use.find((u) => u.role === "dictation");
  if (!set) return null;
  const start = async () => {
    setWhy(null);
    client().command("dictate_read_aloud_start", {});
    try {
      mic.current = await openMic((f) => client().link.sendBinary(encodeDictationFrame(f)));
    } catch (err) {
      client().command("dictate_read_aloud_stop", { keep: false });
      setWhy(err instanceof Error ? err.message : String(err));
    }
  };
  const stop = async (keep: boolean) => {
    await mic.current?.stop();
    mic.current = null;
    client().command("dictate_read_aloud_stop", { keep });
  };
  return (
    <section data-testid="read-aloud">
      <h2>Read aloud</h2>
      <blockquote class="passage">{set.passage}</blockquote>
      {set.recording
        ? (
          <>
            <button type="button" data-testid="read-aloud-keep" onClick={() => stop(true)}>
              Stop and keep
            </button>
            <button type="button" onClick={() => stop(false)}>Discard</button>
          </>
        )
        : (
          <button type="button" data-testid="read-aloud-record" onClick={start}>
            Record the passage
          </button>
        )}
      {(why ?? set.error) && <p class="reason">{why ?? set.error}</p>}
      <ul data-testid="read-aloud-recordings">
        {set.recordings.map((r) => (
          <li key={r.id}>
            {r.id} <span class="muted">{(r.duration_ms / 1000).toFixed(1)} s</span>
            <button
              type="button"
              onClick={() => client().command("dictate_read_aloud_delete", { id: r.id })}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      {dictation && set.recordings.length > 0 && (
        <button
          type="button"
          data-testid="bench-run"
          onClick={() =>
            client().command("dictate_bench", {
              target: {
                role: "dictation",
                file: dictation.file,
                pinned: dictation.from.from === "pin",
              },
              tier: "read_aloud",
            })}
        >
          Bench {dictation.file} on these recordings
        </button>
      )}
      {props.m.bench && (
        <button
          type="button"
          onClick={() => client().command("dictate_bench_stop", null)}
        >
          Stop the bench
        </button>
      )}
    </section>
  );
}
