import { assertEquals } from "../../../../tests/assert.ts";
import { noticeWhy } from "./notice_words.ts";

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
