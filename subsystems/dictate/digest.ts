/** SHA-256 as lower-case hex: the digest every model row, recording and corpus carries. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of a file on disk, streamed so a large model is never held whole in memory. */
export async function sha256File(path: string): Promise<string> {
  // Web Crypto has no incremental digest; node:crypto does, and Deno carries it.
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}
