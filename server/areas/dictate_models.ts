/**
 * The dictate_models subject. spec: What a subject carries > dictate_models: `enabled` is
 * "carried rather than inferred from an empty in_use, which a failed preflight empties while a
 * switched-off section still carries the speaking row when [tts] is on". So the subject is the
 * core's: with [dictate] on it is the dictation role's page; with [dictate] off and [tts] on it is
 * this page - `enabled: false`, nothing of dictation's, and the speaking role's row, its `in_use`
 * entry and its bench; with both off it is refused in words.
 */
import type { DictateModelsSnapshot } from "../../protocol/mod.ts";
import { defineSubsystem, type Host, Refusal, type SpeakingRole } from "../subsystem.ts";

/** The page a switched-off [dictate] serves while [tts] runs the speaking role. */
export function speakingOnlyPage(host: Host, speaking: SpeakingRole): DictateModelsSnapshot {
  const fields = speaking.fields();
  const dir = host.config().areas.dictate?.models_dir;
  return {
    enabled: false,
    models_dir: typeof dir === "string" && dir !== "" ? dir : null,
    speaking: fields.speaking,
    in_use: [fields.in_use],
    check: { state: "never" },
    updates: [],
    rows: [],
    install: { state: "idle" },
    activate: { state: "idle" },
    installed: [],
    bench: null,
    results: [],
    read_aloud: null,
    speaking_bench: fields.speaking_bench,
    speaking_results: fields.speaking_results,
  };
}

export const dictateModelsArea = defineSubsystem({
  id: "dictate_models",
  note: "the models page: dictation's, or the speaking role's alone with [dictate] off",
  switch: null,
  area: null,
  verbs: [],
  commands: [],
  subjects: ["dictate_models"],
  binary: [],
  load: () =>
    Promise.resolve({
      create: (host: Host) => {
        const read = (): DictateModelsSnapshot | null => {
          const dictation = host.speech?.dictation;
          if (dictation) return dictation.page();
          const speaking = host.speech?.speaking;
          return speaking ? speakingOnlyPage(host, speaking) : null;
        };
        if (host.speech) {
          host.speech.announce = () => {
            if (host.speech?.dictation) return host.speech.dictation.announce();
            const models = read();
            if (models !== null) host.emit({ name: "dictate_models_changed", fields: { models } });
          };
        }
        return {
          verbs: {},
          commands: {},
          subjects: {
            dictate_models: () => {
              const models = read();
              if (models === null) {
                throw new Refusal(
                  "subscribe",
                  "dictate_models: [dictate] and [tts] are both off in forge.toml, so there are no speech models to show",
                );
              }
              return Promise.resolve(models);
            },
          },
        };
      },
    }),
});
