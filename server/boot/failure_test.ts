// A boot's failure in forge's words: the phase and the reason; the engine's message is the cause.
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { memoryLogger } from "../log.ts";
import { BootFailure, bootFailureLines, inPhase } from "./failure.ts";

const failureOf = (p: Promise<unknown>) => p.then(() => null, (e: BootFailure) => e);

Deno.test("a sentence forge wrote is the reason as it stands, after its phase", async () => {
  const log = memoryLogger();
  const err = await failureOf(inPhase("listen", log, () => {
    throw new Error("127.0.0.1:1 is taken (another forge?)");
  }));
  assertEquals(
    err!.message,
    "forge could not start while binding the socket's port (the listen phase): 127.0.0.1:1 is " +
      "taken (another forge?)",
  );
  assertEquals(bootFailureLines(err), [err!.message]);
  assertEquals(log.records.map((r) => r.event), ["boot_failed"]);
});

Deno.test("an engine's error: its errno in words, or an internal error; its message the cause", async () => {
  const log = memoryLogger();
  const denied = await failureOf(inPhase("state", log, () => {
    throw new Deno.errors.PermissionDenied("Permission denied (os error 13): mkdir '/x/state'");
  }, "/x/state"));
  assertEquals(
    denied!.why,
    "/x/state: forge is not allowed to write there; forge.log has its cause under boot_failed",
  );
  const engine = new TypeError("Cannot read properties of undefined (reading 'x')");
  const internal = await failureOf(inPhase("subsystems", log, () => Promise.reject(engine)));
  assertEquals(
    internal!.why,
    "an internal error stopped it; forge.log has its cause under boot_failed",
  );
  assertEquals((log.records[1] as unknown as { error: unknown }).error, engine);
  // No log yet (the config phase before forge.log opened): the engine's words go below.
  const early = await failureOf(inPhase("config", null, () => Promise.reject(engine)));
  assertEquals(bootFailureLines(early), [
    "forge could not start while reading its config and opening forge.log (the config phase): " +
    "an internal error stopped it",
    `  cause: TypeError: ${engine.message}`,
  ]);
});

Deno.test("a failure already named passes through a phase unchanged", async () => {
  const inner = new BootFailure("flags", "--port takes a port", null);
  await assertRejects(() => inPhase("config", null, () => Promise.reject(inner)), /flags phase/);
});
