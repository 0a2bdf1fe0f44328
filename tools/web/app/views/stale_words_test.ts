import { assertEquals } from "../../../../tests/assert.ts";
import { staleWords } from "./stale_words.ts";

const address = "ws://127.0.0.1:8790/socket";

Deno.test("stale words: a forge never reached is named, and not called disconnected", () => {
  const never = { link: "down" as const, retryInMs: 3000, greeted: false, drawn: false };
  assertEquals(
    staleWords(never, address),
    "Cannot reach forge at ws://127.0.0.1:8790/socket. Is it running (tools/deno.sh task start)? " +
      "Trying again in 3 s.",
  );
  assertEquals(
    staleWords({ ...never, link: "connecting", retryInMs: null }, address),
    "Connecting to forge at ws://127.0.0.1:8790/socket…",
  );
});

Deno.test("stale words: a forge that answered once and dropped is disconnected", () => {
  const dropped = { link: "down" as const, retryInMs: 1000, greeted: true, drawn: true };
  assertEquals(
    staleWords(dropped, address),
    "Disconnected from forge at ws://127.0.0.1:8790/socket. Trying again in 1 s. " +
      "What is drawn below is from before the drop.",
  );
});
