import { assertEquals } from "../tests/assert.ts";
import { KeyedLock, Lock } from "./lock.ts";

Deno.test("a lock runs jobs one at a time, in order, past a job that throws", async () => {
  const lock = new Lock();
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const first = lock.run(async () => {
    seen.push("first starts");
    await gate;
    seen.push("first ends");
    return 1;
  });
  const second = lock.run(() => {
    seen.push("second");
    throw new Error("refused");
  });
  const third = lock.run(() => {
    seen.push("third");
    return 3;
  });
  await Promise.resolve();
  release();
  assertEquals(await first, 1);
  let refused = "";
  await second.catch((err) => refused = (err as Error).message);
  assertEquals(refused, "refused");
  assertEquals(await third, 3);
  assertEquals(seen, ["first starts", "first ends", "second", "third"]);
  await lock.idle();
});

Deno.test("a keyed lock orders jobs under one key and lets other keys pass", async () => {
  const lock = new KeyedLock();
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const a1 = lock.run("a", async () => {
    await gate;
    seen.push("a1");
  });
  const a2 = lock.run("a", () => seen.push("a2"));
  await lock.run("b", () => seen.push("b1"));
  assertEquals(seen, ["b1"]);
  release();
  await a1;
  await a2;
  assertEquals(seen, ["b1", "a1", "a2"]);
});
