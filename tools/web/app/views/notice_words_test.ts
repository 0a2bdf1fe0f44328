import { assertEquals } from "../../../../tests/assert.ts";
import { noticeParts, noticeWhy } from "./notice_words.ts";

Deno.test("a why that leads with its what is drawn without it, once", () => {
  assertEquals(
    noticeWhy("cron_create", "cron_create: schedule: `61 * * * *` is not a 5-field expression"),
    "schedule: `61 * * * *` is not a 5-field expression",
  );
});

Deno.test("a why that does not name its what is drawn whole", () => {
  assertEquals(noticeWhy("schema", "update: not a ServerMessage"), "update: not a ServerMessage");
  assertEquals(noticeWhy("more", "more_x: kept"), "more_x: kept");
});

Deno.test("a command the core refused is headed by the command, not by dispatch", () => {
  assertEquals(
    noticeParts("dispatch", "remove_review_thread: Acme/proj/lead has no thread t9"),
    { head: "remove_review_thread", why: "Acme/proj/lead has no thread t9" },
  );
  assertEquals(noticeParts("dispatch", "the seat is gone"), {
    head: "dispatch",
    why: "the seat is gone",
  });
  assertEquals(noticeParts("cron_create", "cron_create: bad"), { head: "cron_create", why: "bad" });
});
