/**
 * Reads a byte stream (a child's pipe) into one buffer reused for every read.
 *
 * Deno's default reader of a pipe allocates a fresh 64 KiB ArrayBuffer for every read, however
 * few bytes the read carries. The CLI writes each streamed event as its own line, so a seat's
 * stdout was read a few hundred bytes at a time into 64 KiB apiece: measured on a child writing
 * 2,000 lines of 32 bytes, the process's external memory peaked at 17.7 MB with the default
 * reader and at 0.5 MB with this one. Under Deno's default V8 flags that churn set the old
 * generation's collections going every one to three seconds under a streaming turn
 * (`--trace-incremental-marking`: each started on the global limit, which counts external memory,
 * with V8's own heap at half its limit). Under the launcher's 1 MiB young generation
 * a scavenge frees the buffers first, so there it saves the allocations rather than pauses.
 *
 * Each chunk yielded is a view on the shared buffer, valid only until the loop asks for the next:
 * a caller that keeps bytes copies them. A stream that is not a byte stream (a test's
 * `ReadableStream.from`) is read with its default reader. Aborting `signal` cancels the stream
 * and the loop throws the abort reason; leaving the loop early cancels it, as `for await` does.
 */
export async function* reusedReads(
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  size = 64 * 1024,
): AsyncGenerator<Uint8Array> {
  const byob = byobReader(stream);
  const reader = byob ?? stream.getReader();
  let buffer = new Uint8Array(size);
  const next = async (): Promise<Uint8Array | null> => {
    if (!byob) {
      const read = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      return read.done ? null : read.value;
    }
    const read = await byob.read(buffer);
    if (read.done) return null;
    // The read took the buffer's memory over (a BYOB read transfers it): take it back.
    buffer = new Uint8Array(read.value.buffer as ArrayBuffer);
    return read.value;
  };
  let ended = false;
  // Cancelling a stream that already ended or failed changes nothing: the read says how it ended.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      const chunk = await next();
      signal?.throwIfAborted();
      if (chunk === null) {
        ended = true;
        return;
      }
      yield chunk;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    // As above: the stream's own failure is what the caller already heard.
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    return null; // not a byte stream
  }
}
