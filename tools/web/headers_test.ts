import { assert, assertEquals } from "../../tests/assert.ts";
import { cacheControl, CONTENT_SECURITY_POLICY } from "./headers.ts";

Deno.test("headers: hashed chunks are kept for good, the shell is read fresh", () => {
  assertEquals(cacheControl("/chat-AB12cd_3.js"), "public, max-age=31536000, immutable");
  assertEquals(cacheControl("/chunk-XY9.js.map"), "public, max-age=31536000, immutable");
  for (const path of ["/", "/index.html", "/app.js", "/sw.js", "/config.json", "/style.css"]) {
    assertEquals(cacheControl(path), "no-store", path);
  }
});

Deno.test("headers: the policy loads images only from the page itself and sockets anywhere", () => {
  const rules = new Map(
    CONTENT_SECURITY_POLICY.split("; ").map((r) => [r.split(" ")[0], r.split(" ").slice(1)]),
  );
  assertEquals(rules.get("img-src"), ["'self'", "data:", "blob:"]);
  assertEquals(rules.get("connect-src"), ["'self'", "ws:", "wss:"]);
  assert(!rules.get("script-src")!.includes("'unsafe-inline'"));
  assertEquals(rules.get("object-src"), ["'none'"]);
});
