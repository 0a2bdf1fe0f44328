// Who is sent an update: the connection it is for alone, or the connections whose subscriptions
// route it, narrowed to the answering ones when it carries a secret only they may hold.
import { assertEquals } from "../tests/assert.ts";
import { reaches, Subscriptions } from "./fanout.ts";
import type { NumberedUpdate } from "./workspace/stream.ts";

function conn(id: number, answering: boolean, subject: "home" | "board") {
  const subs = new Subscriptions();
  subs.add(subject);
  return { id, answering, subs };
}

const rotated = (only: NumberedUpdate["only"]): NumberedUpdate => ({
  update: { name: "vault_rotated", fields: { refresh_token: "rt" } },
  slot: null,
  seq: null,
  span: 1,
  only,
});

Deno.test("an update for answering connections skips a read-only one; one for a connection, the rest", () => {
  const answering = conn(1, true, "home"), readOnly = conn(2, false, "home");
  const elsewhere = conn(3, true, "board");
  const to = (u: NumberedUpdate) =>
    [answering, readOnly, elsewhere].filter((c) => reaches(c, u)).map((c) => c.id);
  assertEquals(to(rotated(null)), [1, 2]);
  assertEquals(to(rotated("answering")), [1]);
  assertEquals(to(rotated(3)), [3]);
});
