/**
 * Runs `script` (TypeScript on stdin) in a Deno of its own under exactly `flags`, as the launcher
 * runs forge: how a test sees what forge says when a permission is refused. Its stdout and stderr.
 */
export async function runUnder(
  flags: string[],
  script: string,
): Promise<{ stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder();
  return { stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}
