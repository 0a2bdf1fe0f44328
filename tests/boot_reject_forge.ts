// forge as main.ts runs it, with one test subsystem more: its start leaves a promise rejected with
// nothing to hear it, as a subsystem's background work can, and goes on once the process has seen
// it. tests/boot_failure_test.ts runs this file as its own process.
import { runForge } from "../main.ts";
import { type AnyManifest, defineSubsystem } from "../server/subsystem.ts";

const rejectsInBackground = defineSubsystem({
  id: "rejects_in_background",
  note: "a test subsystem",
  switch: null,
  area: null,
  verbs: [],
  commands: [],
  subjects: [],
  binary: [],
  load: () =>
    Promise.resolve({
      create: async () => {
        // Heard after whatever listener forge installed: one that lets it through ends the process.
        const seen = new Promise((r) => addEventListener("unhandledrejection", r, { once: true }));
        Promise.reject(new TypeError("Cannot read properties of null (reading 'poll')"));
        await seen;
        return { verbs: {}, commands: {}, subjects: {} };
      },
    }),
}) as AnyManifest;

await runForge(Deno.args, { extra: [rejectsInBackground] });
