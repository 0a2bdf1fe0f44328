import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { ioWords, readWords } from "./words.ts";

/** The error a real read raises for `path` in a child Deno allowed to read only `allowed`. */
async function childReadError(path: string, allowed: string): Promise<string> {
  const script = `${allowed}/read.ts`;
  await Deno.writeTextFile(
    script,
    `try { Deno.readTextFileSync(${JSON.stringify(path)}); console.log("read"); }
    catch (e) { console.log(e.constructor.name); }`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--no-config", `--allow-read=${allowed}`, script],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("words: a read outside the launcher's fence names forge's permissions, not the OS", async () => {
  const dir = await Deno.makeTempDir();
  // The class a fenced read raises in this Deno, so the mapping below is the one that meets it.
  assertEquals(await childReadError("/etc/hostname", dir), "NotCapable");
  assertMatch(readWords(new Deno.errors.NotCapable("no")), /forge's permissions do not reach it/);
  assertEquals(
    readWords(new Deno.errors.PermissionDenied("no")),
    "forge is not allowed to read it",
  );
  assertEquals(readWords(Object.assign(new Error("x"), { code: "ENOENT" })), "it is not there");
  assertEquals(ioWords(Object.assign(new Error("x"), { code: "ENOSPC" })), "the disk is full");
  await Deno.remove(dir, { recursive: true });
});
