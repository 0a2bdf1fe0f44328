import { assertEquals } from "../../tests/assert.ts";
import { type Stamp, Stamper, statStamp } from "./stamps.ts";

/** A folder with a file and a subfolder, and the paths the tests stamp in it. */
async function tree(): Promise<{ dir: string; paths: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "forge-stamps-" });
  await Deno.writeTextFile(`${dir}/file.txt`, "twelve bytes");
  await Deno.mkdir(`${dir}/sub`);
  return { dir, paths: [dir, `${dir}/file.txt`, `${dir}/sub`, `${dir}/missing`] };
}

/** What `Deno.stat` says of each path, in a stamp's terms. */
async function expected(paths: string[]): Promise<(Stamp | null)[]> {
  return await Promise.all(paths.map(async (p) => {
    const info = await Deno.stat(p).catch(() => null);
    return info && { mtime: info.mtime!.getTime(), size: info.size, isDirectory: info.isDirectory };
  }));
}

Deno.test("the paths asked in one turn go to the stat thread as one batch, each stamped", async () => {
  const { dir, paths } = await tree();
  const stamper = new Stamper({ minBatch: 1 });
  try {
    const stamps = await Promise.all(paths.map((p) => stamper.stamp(p)));
    assertEquals(stamps, await expected(paths));
    assertEquals(stamps[1]?.size, 12);
    assertEquals(stamps[3], null);
    assertEquals(stamper.batches, 1);
    // A later turn's asks are a batch of their own, read afresh.
    await Deno.writeTextFile(`${dir}/file.txt`, "longer than twelve");
    assertEquals((await stamper.stamp(`${dir}/file.txt`))?.size, 18);
    assertEquals(stamper.batches, 2);
  } finally {
    stamper.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a stat thread that will not load leaves the stamps right, read on this thread", async () => {
  const { dir, paths } = await tree();
  const stamper = new Stamper({
    module: new URL("./no_such_worker.ts", import.meta.url),
    minBatch: 1,
  });
  try {
    assertEquals(await Promise.all(paths.map((p) => stamper.stamp(p))), await expected(paths));
    // Once failed, the thread is not tried again.
    assertEquals(await stamper.stamp(`${dir}/sub`), await statStamp(`${dir}/sub`));
  } finally {
    stamper.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a batch smaller than the threshold is stamped without starting the thread", async () => {
  const { dir, paths } = await tree();
  const stamper = new Stamper({ minBatch: paths.length + 1 });
  try {
    assertEquals(await Promise.all(paths.map((p) => stamper.stamp(p))), await expected(paths));
    assertEquals(stamper.batches, 0);
    // A batch as large as the threshold starts it, and later small ones ride it.
    const more = [...paths, `${dir}/file.txt`];
    assertEquals(await Promise.all(more.map((p) => stamper.stamp(p))), await expected(more));
    assertEquals(stamper.batches, 1);
    assertEquals(await stamper.stamp(dir), (await expected([dir]))[0]);
    assertEquals(stamper.batches, 2);
  } finally {
    stamper.close();
    await Deno.remove(dir, { recursive: true });
  }
});
