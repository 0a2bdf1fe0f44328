import { assertEquals } from "../tests/assert.ts";
import { isDir, isDirSync, isFile, isFileSync } from "./path_kind.ts";

Deno.test("a path's kind: a file, a directory, a link to either, or nothing there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-path-kind-" });
  try {
    await Deno.writeTextFile(`${dir}/file`, "x");
    await Deno.mkdir(`${dir}/sub`);
    await Deno.symlink(`${dir}/file`, `${dir}/to-file`);
    await Deno.symlink(`${dir}/sub`, `${dir}/to-sub`);
    await Deno.symlink(`${dir}/gone`, `${dir}/dangling`);
    const paths = ["file", "sub", "to-file", "to-sub", "dangling", "absent", "file/under-a-file"];
    const kinds = async (path: string) => [
      await isFile(`${dir}/${path}`),
      await isDir(`${dir}/${path}`),
      isFileSync(`${dir}/${path}`),
      isDirSync(`${dir}/${path}`),
    ];
    const seen: Record<string, boolean[]> = {};
    for (const path of paths) seen[path] = await kinds(path);
    assertEquals(seen, {
      "file": [true, false, true, false],
      "sub": [false, true, false, true],
      "to-file": [true, false, true, false],
      "to-sub": [false, true, false, true],
      "dangling": [false, false, false, false],
      "absent": [false, false, false, false],
      "file/under-a-file": [false, false, false, false],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
