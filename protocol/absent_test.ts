import { assert } from "../tests/assert.ts";
import { ABSENT_COMMANDS, ABSENT_UPDATES } from "./absent.ts";
import { COMMANDS } from "./command.ts";

// An absence is argued, and an argued command is one this server decodes. (That nothing argued
// absent is emitted is update_test.ts's: it reads the real emit sites.)
Deno.test("every absent update names its reason; an absent command is a decoded one", () => {
  for (const [name, why] of Object.entries(ABSENT_UPDATES)) {
    assert(why.length > 40, `${name} gives a reason`);
  }
  for (const name of Object.keys(ABSENT_COMMANDS)) assert(name in COMMANDS, name);
});
