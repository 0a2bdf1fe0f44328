// After a reconnect the SDK asks again for every subscription the connection held, the ones sent by
// hand as well as a follow's, in the order held, and says what came back and what forge refused:
// a real forge (`deno task start`, a real claude CLI seat on the fake API) restarted on its port
// with one project gone from its config. The redial's backoff runs on a clock the test moves by
// hand; the sockets, the seat and its frames are real. spec: The socket > Reaching it ("What a
// reconnect must do is the client's own rule"); subscribe; unsubscribe (counted); Subjects (a seat
// that is not there is an error).
import { readUpdate, type Slot, type Subject, subjectKey } from "../protocol/mod.ts";
import { type Frame, hears, type Subscription } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import { restartable, undeclare } from "./client_support.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";

Deno.test("restore: subscriptions sent by hand come back in order after forge restarts", async () => {
  await using world = await seatWorld([{ name: "alpha" }, { name: "beta", autoStart: false }]);
  const forge = await restartable(world);
  const [alpha, beta] = [world.lead("alpha"), world.lead("beta")];
  await subscribeSeat(await forge.running.ready(), alpha);
  const { c, before, redial } = await forge.connect();

  /** The oldest snapshot of `what` not yet taken and not among `after`. */
  const snapshotOf = (what: Subject, after: Set<Frame>) =>
    c.nextFrame((f) =>
      !after.has(f) && f.type === "json" && f.data.kind === "snapshot" &&
      subjectKey(f.data.subject as Subject) === subjectKey(what), 30_000);

  // Held in this order: usage (a follow's), then by hand home, alpha as an answerer, board, beta
  // (declared, not started), home again, each answered; then board let go and asked for again,
  // so it is last.
  const usage = c.follow("usage");
  assertEquals((await usage.take(30_000)).kind, "snapshot");
  c.send({ kind: "subscribe", what: "home" });
  c.send({ kind: "subscribe", what: { session: alpha }, answering: true });
  c.send({ kind: "subscribe", what: "board" });
  c.send({ kind: "subscribe", what: { session: beta } });
  c.send({ kind: "subscribe", what: "home" }); // a second entry: spec: unsubscribe (counted)
  for (const what of ["home", { session: alpha }, "board", { session: beta }] as Subject[]) {
    await snapshotOf(what, new Set());
  }
  await snapshotOf("home", new Set()); // the second: the first was taken above
  c.send({ kind: "unsubscribe", what: "board" });
  c.send({ kind: "subscribe", what: "board" });
  await snapshotOf("board", new Set());

  // forge goes; beta leaves its config; forge comes back on the same port.
  await forge.restart(async () => {
    // Let go while down: nothing is sent, and one home entry is not asked for again.
    c.send({ kind: "unsubscribe", what: "home" });
    await undeclare(world, "beta");
  });
  // Said once every one was answered (below); the client redials now.
  const reconnected = redial();
  // Each asked for again without the caller sending anything: its snapshot comes again.
  for (const what of ["home", { session: alpha }, "usage", "board"] as Subject[]) {
    await snapshotOf(what, before);
  }
  const again = await usage.take(30_000);
  assert(again.kind === "snapshot" && again.reconnected, "the follow read usage again");
  // Said once every one was answered: what came back in the order held, and what forge refused.
  const back = await reconnected;
  const held = (what: Subject, answering?: boolean): Subscription =>
    answering === undefined ? { kind: "subscribe", what } : { kind: "subscribe", what, answering };
  assertEquals(back.restored, [
    held("usage", false),
    held("home"),
    held({ session: alpha }, true),
    held("board"),
  ]);
  assertEquals(back.refused.map((r) => [r.subscription.what, r.why.startsWith("Acme/beta/lead")]), [
    [{ session: beta }, true],
  ]);

  // The updates flow again on the restored subscriptions: alpha's turn, and home's news of it.
  await c.command("prompt", { key: alpha, text: "[[script:hello]] after", attachments: [] });
  const updateFor = (what: Subject) =>
    c.nextFrame((f) => {
      if (before.has(f) || f.type !== "json" || f.data.kind !== "update") return false;
      const read = readUpdate(f.data.update);
      return read.ok && hears(what, read.update);
    }, 60_000);
  await updateFor({ session: alpha as Slot });
  await updateFor("home");
  await forge.close();
});
