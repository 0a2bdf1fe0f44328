// A password stays out of every snapshot the agent reads (driver_passwords.ts), on a REAL
// Chromium: in each shape Playwright prints a field's value - after a key YAML had to quote, as a
// `- text:` line under a placeholder, under a role the page gave the field - it shows as its
// length; and a snapshot that would still show one after the mask is refused in words, the
// password nowhere in the answer.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserTools, yamlOf } from "../../tests/browser_tools.ts";

const page = (html: string) => `data:text/html,${encodeURIComponent(html)}`;

Deno.test("a password shows as its length in every shape the snapshot prints a value in", async () => {
  await using tools = await browserTools();
  const nav = await tools.run("navigate", {
    url: page(
      `<input type=password aria-label="PIN: 4 digits" value="hunter22">
       <input type=password aria-label="Secret" placeholder="at least 8 characters" value="s3cret-pw">
       <input type=password role=button aria-label="Reveal" value="rolepass">
       <input aria-label="Name" value="Ada">`,
    ),
  });
  assertEquals(nav.isError, undefined, nav.text);
  const snap = await tools.run("snapshot", {});
  assertEquals(snap.isError, undefined, snap.text);
  const yaml = yamlOf(snap.text);
  assertMatch(yaml, /- 'textbox "PIN: 4 digits" \[ref=e\d+\]': \(a password, 8 characters\)\n/);
  assertMatch(
    yaml,
    /- textbox "Secret" \[ref=e\d+\]:\n\s+- \/placeholder: at least 8 characters\n\s+- text: \(a password, 9 characters\)\n/,
  );
  assertMatch(yaml, /- button "Reveal" \[ref=e\d+\]: \(a password, 8 characters\)\n/);
  assertMatch(yaml, /- textbox "Name" \[ref=e\d+\]: Ada/);
  for (const secret of ["hunter22", "s3cret-pw", "rolepass"]) {
    // (The answer's URL is the data: URL the test wrote; the snapshot is what the page shows.)
    assert(!yaml.includes(secret), `${secret} is in the snapshot`);
  }
  // One element's snapshot is masked the same way.
  const ref = /textbox "Secret" \[ref=(e\d+)\]/.exec(yaml)![1];
  const part = await tools.run("snapshot", { target: ref });
  assertMatch(part.text, /- text: \(a password, 9 characters\)/);
  assert(!yamlOf(part.text).includes("s3cret-pw"));
});

Deno.test("a snapshot that would still show a password after the mask is refused, the password not in it", async () => {
  await using tools = await browserTools();
  await tools.run("navigate", {
    url: page(`<p>Your code is s3cret-pw</p><input type=password value="s3cret-pw">`),
  });
  const snap = await tools.run("snapshot", {});
  assertEquals(snap.isError, true);
  assertMatch(snap.text, /^forge does not show this snapshot: its line \d+ holds a password/);
  assert(!snap.text.includes("s3cret-pw"), snap.text);
  // The field's own reading still works, its value as its length.
  const form = await tools.run("form_state", { target: "body" });
  assertMatch(form.text, /value=\(9 characters\)/);
});
