import { assert, assertEquals } from "../../tests/assert.ts";
import type { AccountConfig } from "../config/types.ts";
import { forward } from "./forward.ts";

const HIDDEN = "SECONDHALFSECRET";

/** A loopback port nothing listens on: a request to it is refused at once. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

function account(token: string): AccountConfig {
  return {
    display_name: "Main",
    provider: "anthropic",
    token,
    base_url: `http://127.0.0.1:${closedPort()}`,
    config_dir: null,
    models: [],
    env: {},
  };
}

/** What the CLI reads of a 502: the API error's message. */
async function said(res: Response): Promise<string> {
  assertEquals(res.status, 502);
  const body = await res.json() as { error: { message: string } };
  return body.error.message;
}

// The failure is the 502's body (the CLI's transcript) and the seat's notice (outcomes.ts): forge's
// sentence, never the engine's header error, which quotes the token whole.
Deno.test("forward: a token a header cannot carry fails in forge's words, the token unsaid", async () => {
  const out = await forward(
    account(`sk-ant-api03-FIRST\n${HIDDEN}`),
    "POST",
    "/v1/messages",
    new Headers(),
    null,
  );
  const why = "account Main's token holds a line break inside it, which an HTTP header cannot " +
    "carry; write it on one line (forge.toml)";
  assertEquals([out.status, out.failure], [null, why]);
  assertEquals(await said(out.response), `forge gateway: ${why}`);
});

Deno.test("forward: an upstream that cannot be reached is said in forge's words, not fetch's", async () => {
  const a = account("sk-ant-api03-good");
  const out = await forward(a, "POST", "/v1/messages", new Headers(), null);
  const why =
    `account Main's upstream ${a.base_url} could not be reached: the connection was refused`;
  assertEquals(out.failure, why);
  const message = await said(out.response);
  assertEquals(message, `forge gateway: ${why}`);
  assert(!/fetch failed|os error/i.test(message), message);
});

// A base URL's user and password are credentials too: the words name the upstream without them.
Deno.test("forward: the failure names the upstream without a password its base_url holds", async () => {
  const a = account("sk-ant-api03-good");
  const port = new URL(a.base_url!).port;
  a.base_url = `http://user:pw-planted-in-url@127.0.0.1:${port}`;
  const out = await forward(a, "POST", "/v1/messages", new Headers(), null);
  assert(out.failure?.startsWith(`account Main's upstream http://127.0.0.1:${port} could not`));
  assert(!(await said(out.response)).includes("pw-planted"), out.failure!);
});
