// forge as main.ts runs it, with one test subsystem more: its start leaves a promise rejected with
// nothing to hear it, as a subsystem's background work can, and goes on once the process has seen
// it. tests/boot_failure_test.ts runs this file as its own process.
import { runForge } from "../main.ts";
import { testManifest } from "./registry_fakes.ts";

const rejectsInBackground = testManifest("rejects_in_background", {}, async () => {
  // Heard after whatever listener forge installed: one that lets it through ends the process.
  const seen = new Promise((r) => addEventListener("unhandledrejection", r, { once: true }));
  Promise.reject(new TypeError("Cannot read properties of null (reading 'poll')"));
  await seen;
});

await runForge(Deno.args, { extra: [rejectsInBackground] });
