// One forge to a state dir (owner.ts): a second is refused with the holder named, and a holder
// that dies however it dies leaves no claim behind.
import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { StateOwner } from "./owner.ts";

const HOLDER = `
const dir = Deno.args[0];
const file = await Deno.open(dir + "/forge.lock", { read: true, write: true, create: true });
if (!(await file.tryLock(true))) Deno.exit(3);
await file.truncate(0);
await file.write(new TextEncoder().encode(Deno.pid + "\\n"));
console.log("held");
setInterval(() => {}, 60_000); // held until killed
`;

Deno.test("owner: a second take is refused naming the holder; a release lets it go", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-owner-" });
  try {
    const first = await StateOwner.take(dir);
    const words = `another forge (pid ${Deno.pid}) runs over ${dir}: stop it, or start this ` +
      `one with --config naming another config dir`;
    await assertRejects(() => StateOwner.take(dir), new RegExp(`^${RegExp.escape(words)}$`));
    first.release();
    const again = await StateOwner.take(dir);
    assertEquals(await Deno.readTextFile(`${dir}/forge.lock`), `${Deno.pid}\n`);
    again.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("owner: a forge in another process holds the dir until it is killed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-owner-" });
  const holder = new Deno.Command(Deno.execPath(), {
    args: ["eval", HOLDER, dir],
    stdout: "piped",
  }).spawn();
  try {
    const out = holder.stdout.pipeThrough(new TextDecoderStream()).getReader();
    assertEquals((await out.read()).value?.trim(), "held");
    await assertRejects(
      () => StateOwner.take(dir),
      new RegExp(`^another forge \\(pid ${holder.pid}\\) runs over`),
    );
    holder.kill("SIGKILL");
    await holder.status;
    out.releaseLock();
    await holder.stdout.cancel();
    const taken = await StateOwner.take(dir);
    taken.release();
  } finally {
    try {
      holder.kill("SIGKILL");
    } catch { /* already ended */ }
    await holder.status;
    await Deno.remove(dir, { recursive: true });
  }
});
