import { assertEquals } from "../tests/assert.ts";
import {
  firstOnPath,
  isDir,
  isDirSync,
  isExecutableSync,
  isFile,
  isFileSync,
} from "./path_kind.ts";

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

Deno.test("firstOnPath finds the first of that name along the dirs that passes, as a spawn would", async () => {
  const a = await Deno.makeTempDir();
  const b = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${a}/gh`); // a directory of that name is not the binary
    await Deno.writeTextFile(`${b}/gh`, "");
    assertEquals(firstOnPath("gh", [a, "", b]), `${b}/gh`);
    assertEquals(firstOnPath("nope", [a, b]), null);
    // Only an executable passes the executable test: b's gh has no execute bit yet.
    assertEquals(firstOnPath("gh", [a, b], isExecutableSync), null);
    await Deno.chmod(`${b}/gh`, 0o755);
    assertEquals(firstOnPath("gh", [a, b], isExecutableSync), `${b}/gh`);
  } finally {
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});
