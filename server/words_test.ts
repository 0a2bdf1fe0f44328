// netWords reads fetch's failures as they really come: Deno's fetch says `fetch failed` and puts
// the socket's reason on its cause.
import { assertEquals } from "../tests/assert.ts";
import { netWords } from "./words.ts";

/** What fetch threw for `url`. */
function failure(url: string): Promise<unknown> {
  return fetch(url).then((res) => res.body?.cancel(), (err) => err);
}

Deno.test("netWords names a refused connection and a blocked port in forge's words", async () => {
  const gone = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (gone.addr as Deno.NetAddr).port;
  gone.close();
  assertEquals(netWords(await failure(`http://127.0.0.1:${port}/`)), "the connection was refused");
  assertEquals(netWords(await failure("http://127.0.0.1:1/")), "the request could not be sent");
});
