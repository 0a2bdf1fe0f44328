import type { ClientKind, ClientMessageOf, CommandName } from "../protocol/mod.ts";
import {
  fieldsArea,
  type Handlers,
  type Host,
  type Manifest,
  type Peer,
  type SubjectName,
} from "../server/subsystem.ts";

/**
 * A test subsystem's manifest: an empty one (no switch, no config area, no names, a start that
 * offers nothing: a fields area's) with `over` laid on it. `start`, when given, is its start: what
 * it returns is laid over empty handlers, so it names only what the manifest declares (a verb's
 * handler, `stop`); a throw or a rejection is its start failing. `over.load` replaces the whole
 * import, `start` and all (a module that cannot load).
 */
export function testManifest<
  const V extends ClientKind = never,
  const C extends CommandName = never,
  const S extends SubjectName = never,
>(
  id: string,
  over: Partial<Manifest<V, C, S>> = {},
  start?: (host: Host) => StartResult<V, C, S> | Promise<StartResult<V, C, S>>,
): Manifest<V, C, S> {
  const empty = fieldsArea(id, "a test subsystem", () => ({}));
  const load = () =>
    Promise.resolve({
      create: async (host: Host) =>
        ({ verbs: {}, commands: {}, subjects: {}, ...(await start?.(host)) }) as Handlers<V, C, S>,
    });
  // The declared names and the handlers `start` returns are the test's to match: a mismatch is
  // what the registry refuses at boot, which some tests mean to see.
  return { ...empty, load, ...over } as unknown as Manifest<V, C, S>;
}

/** What a test subsystem's start offers: any of its handlers, or nothing. */
type StartResult<V extends ClientKind, C extends CommandName, S extends SubjectName> =
  | Partial<Handlers<V, C, S>>
  | void;

/** A one-verb subsystem for tests and benches: `voice_preview` handled by `handler`. */
export function fakePreview(
  id: string,
  handler: (m: ClientMessageOf<"voice_preview">, peer: Peer) => void | Promise<void>,
) {
  return testManifest(id, { verbs: ["voice_preview"] }, () => ({
    verbs: { voice_preview: handler },
  }));
}
