// The LoggedOut rule (spec: What a subject carries > home, agents: lifecycle; the catalogue's
// lifecycle enum): the `account` answers here are the ones the pinned CLI gave `initialize` with
// an empty config dir, then with each credential variable, then with an OAuth login in the dir
// (tests/seats_logged_out_test.ts runs the first and the last).
import { assertEquals } from "../../../tests/assert.ts";
import { credentialVerdict, reportsNoCredential } from "./credential.ts";
import { lifecycleOf, type LifecycleSource } from "./rows.ts";
import { SeatState } from "./seat_state.ts";

Deno.test("an initialize naming no token and no key source reports no credential", () => {
  assertEquals(reportsNoCredential({ tokenSource: "none", apiProvider: "firstParty" }), true);
  assertEquals(
    reportsNoCredential({ tokenSource: "none", apiKeySource: "none", apiProvider: "firstParty" }),
    true,
  );
  assertEquals(reportsNoCredential({ tokenSource: "none" }), true);
});

Deno.test("a key, the gateway's token, a login or a cloud provider is a credential", () => {
  // ANTHROPIC_API_KEY in the CLI's environment (a seat launched without the gateway).
  const key = { tokenSource: "none", apiKeySource: "ANTHROPIC_API_KEY", apiProvider: "firstParty" };
  // The gateway's stamp: ANTHROPIC_AUTH_TOKEN.
  const stamped = { tokenSource: "ANTHROPIC_AUTH_TOKEN", apiProvider: "firstParty" };
  // The config dir's own OAuth login names its subscription and no source at all.
  const login = { subscriptionType: "Claude Max", apiProvider: "firstParty" };
  // A cloud provider signs in with its own credentials, which the answer does not name.
  const cloud = { tokenSource: "none", apiProvider: "bedrock" };
  for (const account of [key, stamped, login, cloud]) {
    assertEquals(reportsNoCredential(account), false, JSON.stringify(account));
  }
});

Deno.test("credentialVerdict: none, a named login, or nothing to judge (the account pool's reading)", () => {
  assertEquals(credentialVerdict({ tokenSource: "none", apiProvider: "firstParty" }), "none");
  assertEquals(
    credentialVerdict({ subscriptionType: "Claude Max", apiProvider: "firstParty" }),
    "named",
  );
  assertEquals(credentialVerdict({ tokenSource: "ANTHROPIC_AUTH_TOKEN" }), "named");
  assertEquals(credentialVerdict({ tokenSource: "none", apiProvider: "bedrock" }), "unknown");
  assertEquals(credentialVerdict(undefined), "unknown");
});

Deno.test("an initialize with no account (an older CLI) is not judged logged out", () => {
  for (const account of [undefined, null, "none", []]) {
    assertEquals(reportsNoCredential(account), false, String(account));
  }
});

Deno.test("a live seat with no credential reads LoggedOut; a later initialize with one clears it", () => {
  const at = (o: Partial<LifecycleSource>) =>
    lifecycleOf({ phase: "live", waiting: false, turnInFlight: false, loggedOut: false, ...o });
  assertEquals(at({}), "Idle");
  assertEquals(at({ loggedOut: true }), "LoggedOut");
  assertEquals(at({ loggedOut: true, turnInFlight: true }), "LoggedOut");
  assertEquals(at({ loggedOut: true, waiting: true }), "LoggedOut");
  // Not live: the phase says it, whatever the last occupant reported.
  assertEquals(at({ loggedOut: true, phase: "spawning" }), "Spawning");
  assertEquals(at({ loggedOut: true, phase: "failed" }), "Failed");
  assertEquals(at({ loggedOut: true, phase: "sleeping" }), "Sleeping");

  const state = new SeatState();
  state.initialize({ account: { tokenSource: "none", apiProvider: "firstParty" } }, null);
  assertEquals(state.loggedOut, true);
  // After a login the next occupant's CLI names its source.
  state.initialize(
    { account: { subscriptionType: "Claude Max", apiProvider: "firstParty" } },
    null,
  );
  assertEquals(state.loggedOut, false);
});
