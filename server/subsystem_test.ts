// A subject's handler answers with its subject's snapshot type, and a reply command's handler with
// its reply schema's type (protocol/snapshots.ts, COMMANDS' `reply`): the envelope's `data` and
// `body` are plain JSON on the wire, so these are where the type check holds the builders to the
// schemas. Each `@ts-expect-error` is a body the old `Wire` contract let through; `deno test`
// type-checks this file, so an unused one fails it. spec: subscribe; command > reply_to.
import { assertEquals } from "../tests/assert.ts";
import type { BoardSnapshot, HomeSnapshot } from "../protocol/mod.ts";
import { encodeData } from "./encoded.ts";
import type { CommandHandler, SubjectHandler } from "./subsystem.ts";

const board: BoardSnapshot = { projects: [] };

Deno.test("SubjectHandler: typed by its subject, encoded or not", async () => {
  const read: SubjectHandler<"board"> = () => Promise.resolve(board);
  const encoded: SubjectHandler<"board"> = () => Promise.resolve(encodeData(board));
  // @ts-expect-error a home snapshot is not a board's
  const _wrong: SubjectHandler<"board"> = () => Promise.resolve({} as HomeSnapshot);
  // @ts-expect-error text encoded from another subject's data is not the board's either
  const _wrongText: SubjectHandler<"board"> = () => Promise.resolve(encodeData({ nope: 1 }));
  assertEquals(await read("board", null as never, { review: false }), board);
  const text = await encoded("board", null as never, { review: false });
  assertEquals("text" in text ? text.text : null, '{"projects":[]}');
});

Deno.test("CommandHandler: a reply command answers its reply schema's type, others nothing", () => {
  const despawned: CommandHandler<"despawn_worker"> = () => "not_found";
  // @ts-expect-error "gone" is not a DespawnResult
  const _wrong: CommandHandler<"despawn_worker"> = () => "gone";
  const enrolled: CommandHandler<"biometric_enrol"> = () => true;
  // @ts-expect-error biometric_enrol answers `true` alone
  const _maybe: CommandHandler<"biometric_enrol"> = () => false as boolean;
  const cancelled: CommandHandler<"cancel"> = () => {};
  // @ts-expect-error cancel has no reply: its handler answers nothing
  const _answered: CommandHandler<"cancel"> = () => "done";
  const none = null as never;
  assertEquals([despawned(none, none), enrolled(none, none), cancelled(none, none)], [
    "not_found",
    true,
    undefined,
  ]);
});
