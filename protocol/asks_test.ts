// The asks forge builds are read through their schemas, not as JSON: a permission ask's call
// (`content`, `locations`), its options' `action`, and each `pending_asks` row by its kind. A
// value off its shape is refused by the validating client with the field's path and what it
// expected. spec: session > pending_asks; respond_permission.
import { assertEquals } from "../tests/assert.ts";
import { seatSnapshot } from "../tests/web_seat_snapshot.ts";
import type { PermissionRequest } from "./asks.ts";
import { HELD_KINDS } from "./held.ts";
import { PendingAsk } from "./session.ts";
import { WireChecker } from "./validate.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const subject = { session: key };
const what = `snapshot of ${JSON.stringify(subject)}`;

const permission: PermissionRequest = {
  tool_call: {
    tool_call_id: "toolu_1",
    title: "Write: /w/a.txt",
    kind: "edit",
    status: "pending",
    content: [],
    raw_input: { file_path: "/w/a.txt", content: "hi" },
    raw_output: null,
    output_metadata: null,
    task_metadata: null,
    locations: [{ path: "/w/a.txt" }],
    meta: { tool_name: "Write", agent_id: null },
  },
  options: [
    { option_id: "allow_once", name: "Allow", kind: "allow", action: { kind: "allow" } },
    {
      option_id: "allow_always_0",
      name: "Always allow access to /w",
      kind: "allow",
      action: {
        kind: "allow_with_updates",
        updates: [{ type: "addDirectories", directories: ["/w"] }],
      },
    },
    { option_id: "deny", name: "Deny", kind: "deny", action: { kind: "deny" } },
  ],
  display: {
    title: null,
    display_name: null,
    description: null,
    decision_reason: null,
    blocked_path: null,
  },
};
const held = {
  kind: "terminal_hand_off",
  id: "h1",
  seq: 1,
  request: { reason: "log in", terminal: 2, id: "h1" },
};
const asked = { kind: "permission", tool_id: "toolu_1", seq: 2, request: permission };

/** The checker's words for a seat snapshot whose pending asks are `asks`. */
function check(asks: unknown[]): string[] {
  const data = { ...seatSnapshot(0, [], "s1", key), pending_asks: asks, pending_ask: null };
  return new WireChecker().check({ kind: "snapshot", subject, data });
}

/** `permission` with `edit` applied to a copy. */
function edited(edit: (p: PermissionRequest) => void): unknown {
  const p = structuredClone(permission);
  edit(p);
  return { ...asked, request: p };
}

Deno.test("pending_asks: what forge builds for a held and a CLI ask reads", () => {
  assertEquals(check([held, asked]), []);
});

Deno.test("pending_asks: one row per held kind, then the CLI's permission and question", () => {
  const kinds = PendingAsk.options.map((o) => o.shape.kind.value);
  assertEquals(kinds, ["permission", "question", ...HELD_KINDS]);
});

Deno.test("pending_asks: a held ask's request is its kind's card", () => {
  assertEquals(check([{ ...held, request: { reason: "log in", id: "h1" } }]), [
    `${what}: pending_asks.0.request.terminal: missing (expected a number)`,
  ]);
  assertEquals(check([{ ...held, kind: "warp" }]), [
    `${what}: pending_asks.0.kind: expected one of "permission", "question", "slack_post", ` +
    `"browser_hand_off", "document_hand_off", "terminal_hand_off", "vault_ask", ` +
    `"settings_write", got "warp"`,
  ]);
});

Deno.test("pending_asks: a CLI ask names its call", () => {
  const { tool_id: _, ...bare } = asked;
  assertEquals(check([bare]), [`${what}: pending_asks.0.tool_id: missing (expected a string)`]);
});

Deno.test("permission ask: a waiting call's content is empty, its locations {path}", () => {
  assertEquals(check([edited((p) => p.tool_call.content = [{ type: "text" }] as never)]), [
    `${what}: pending_asks.0.request.tool_call.content: must hold at most 0 items`,
  ]);
  assertEquals(check([edited((p) => p.tool_call.locations = ["/w/a.txt"] as never)]), [
    `${what}: pending_asks.0.request.tool_call.locations.0: expected an object, got a string`,
  ]);
});

Deno.test("permission ask: an option's action is a PermissionAction", () => {
  assertEquals(check([edited((p) => p.options[0].action = { kind: "allow_all" } as never)]), [
    `${what}: pending_asks.0.request.options.0.action.kind: expected one of "allow", ` +
    `"allow_with_updates", "allow_with_input", "deny", got "allow_all"`,
  ]);
});
