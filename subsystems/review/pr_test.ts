// spec: session rows `pr, closes` - gh where installed and signed in, else null with the reason
// logged once; cached with a refetch window; a record read never waits unless the seat has no
// session. gh is not installed on this machine and the network is not reachable, so the
// signed-in paths run against a stand-in `gh` executable that answers gh's own JSON shapes.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { parseCloses, parsePrList, PrLookup } from "./pr.ts";
import { cleanup, fakeGh, tempDir } from "../../tests/review_support.ts";
import { runUnder } from "../../tests/narrow_deno.ts";

Deno.test("pr: no gh installed answers none and reports the reason once", async () => {
  const dir = await tempDir();
  try {
    const told: string[] = [];
    const lookup = new PrLookup({ gh: `${dir}/no-such-gh`, onUnavailable: (r) => told.push(r) });
    equal(await lookup.availability(dir), "gh is not installed");
    deepStrictEqual(await lookup.lookup(dir, "feature"), { pr: null, closes: [] });
    deepStrictEqual(await lookup.read(dir, "feature", false), { pr: null, closes: [] });
    deepStrictEqual(told, ["gh is not installed"]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("pr: a gh that is not executable is said so, in forge's words", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(`${dir}/gh`, "#!/bin/sh\nexit 0\n");
    await Deno.chmod(`${dir}/gh`, 0o644);
    const lookup = new PrLookup({ gh: `${dir}/gh` });
    equal(await lookup.availability(dir), "gh is not executable");
  } finally {
    await cleanup(dir);
  }
});

// Under the launcher's flags, a gh outside --allow-run: Deno's refusal is never quoted.
Deno.test("pr: a gh forge may not run is said so in forge's words, not Deno's", async () => {
  const dir = await tempDir();
  try {
    const { gh } = await fakeGh(dir);
    const pr = new URL("./pr.ts", import.meta.url).href;
    const script = `import { PrLookup } from ${JSON.stringify(pr)};\n` +
      `console.log(await new PrLookup({ gh: ${
        JSON.stringify(gh)
      } }).availability(".")); Deno.exit(0);`;
    const ran = await runUnder(["--allow-read", "--allow-env", "--allow-run=git"], script);
    equal(
      ran.stdout.trim(),
      "forge is not allowed to run gh: start it through the launcher with review on",
      ran.stderr,
    );
  } finally {
    await cleanup(dir);
  }
});

Deno.test("pr: gh not signed in answers none with gh's own words, once", async () => {
  const dir = await tempDir();
  try {
    const { gh, calls } = await fakeGh(dir);
    const told: string[] = [];
    const lookup = new PrLookup({ gh, onUnavailable: (r) => told.push(r) });
    deepStrictEqual(await lookup.lookup(dir, "feature"), { pr: null, closes: [] });
    deepStrictEqual(await lookup.lookup(dir, "feature"), { pr: null, closes: [] });
    deepStrictEqual(told, [
      "gh is not signed in: You are not logged into any GitHub hosts. To log in, run: gh auth login",
    ]);
    deepStrictEqual(calls(), ["--version", "auth status"]); // the verdict is cached, not re-probed
  } finally {
    await cleanup(dir);
  }
});

Deno.test("pr: a PR and its closing issues, cached; reads never wait unless the seat has no session", async () => {
  const dir = await tempDir();
  try {
    const { gh, calls } = await fakeGh(dir);
    await Deno.writeTextFile(`${dir}/signed_in`, "");
    let now = 0;
    const lookup = new PrLookup({ gh, now: () => now, refetchMs: 60_000 });
    // No PR: one network call.
    deepStrictEqual(await lookup.lookup(dir, "feature"), { pr: null, closes: [] });
    equal(calls().filter((c) => c.startsWith("pr ")).length, 1);
    await Deno.writeTextFile(`${dir}/has_pr`, "");
    // Inside the window a record read serves the cache; a session's read never calls gh.
    deepStrictEqual(await lookup.read(dir, "feature", true), { pr: null, closes: [] });
    deepStrictEqual(await lookup.read(dir, "feature", false), { pr: null, closes: [] });
    equal(lookup.stale(dir, "feature"), false);
    now += 60_000;
    equal(lookup.stale(dir, "feature"), true);
    deepStrictEqual(await lookup.read(dir, "feature", true), { pr: null, closes: [] }); // served as it stands
    equal(calls().filter((c) => c.startsWith("pr ")).length, 1);
    // No session: the read looks it up - two calls when it finds a PR.
    const want = {
      pr: { number: 42, url: "https://example.invalid/o/r/pull/42", is_draft: true },
      closes: [{ number: 7, url: "https://example.invalid/o/r/issues/7" }],
    };
    deepStrictEqual(await lookup.read(dir, "feature", false), want);
    deepStrictEqual(calls().filter((c) => c.startsWith("pr ")), [
      "pr list --head feature --state open --limit 1 --json number,url,isDraft",
      "pr list --head feature --state open --limit 1 --json number,url,isDraft",
      "pr view 42 --json closingIssuesReferences",
    ]);
    deepStrictEqual(lookup.cached(dir, "feature"), want);
    deepStrictEqual(await lookup.read(dir, null, false), { pr: null, closes: [] });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("pr: gh's JSON is parsed strictly", () => {
  deepStrictEqual(parsePrList("[]"), null);
  deepStrictEqual(parsePrList('[{"number":1,"url":"u","isDraft":false}]'), {
    number: 1,
    url: "u",
    is_draft: false,
  });
  equal(parsePrList("not json"), undefined);
  equal(parsePrList('{"number":1}'), undefined);
  deepStrictEqual(parseCloses('{"closingIssuesReferences":[]}'), []);
  equal(parseCloses("{}"), undefined);
});
