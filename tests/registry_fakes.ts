import type { ClientMessageOf } from "../protocol/mod.ts";
import { defineSubsystem, type Peer } from "../server/subsystem.ts";

/** A one-verb subsystem for tests and benches: `voice_preview` handled by `handler`. */
export function fakePreview(
  id: string,
  handler: (m: ClientMessageOf<"voice_preview">, peer: Peer) => void | Promise<void>,
) {
  return defineSubsystem({
    id,
    note: "a test subsystem",
    switch: null,
    area: null,
    verbs: ["voice_preview"],
    commands: [],
    subjects: [],
    binary: [],
    load: () =>
      Promise.resolve({
        create: () => ({ verbs: { voice_preview: handler }, commands: {}, subjects: {} }),
      }),
  });
}
