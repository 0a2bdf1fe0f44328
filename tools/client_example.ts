/**
 * The SDK in use, as docs/client.md shows it: connect to forge (redialled if the link drops),
 * ask it something answered by a reply, follow a seat, show it, prompt it and print its turn as
 * it streams (a frame lost on the way, or while the link was down, is asked for again with
 * seat_range and marked), then close. tools/client_example_test.ts runs it against a real forge
 * through a link that loses a frame and then drops, so the page's example cannot rot.
 *
 *   deno run --allow-net tools/client_example.ts ws://127.0.0.1:8790/socket Acme/proj/lead "hi"
 */
// --- docs/client.md shows from here ---------------------------------------------------------
import { parseSlotName } from "../protocol/mod.ts";
import { ForgeClient, ForgeRefusal } from "./client_lib.ts";

const [url, seatName, text] = usage(Deno.args);
const slot = parseSlotName(seatName)!;
// A dropped link is dialled again with backoff; every subscription comes back, and a seat
// followed resumes from the number it holds.
const forge = await ForgeClient.connect(url, { reconnect: { maxMs: 5_000 } });
forge.onLink((e) => {
  if (e.kind === "reconnecting") return console.log(`link down, redial ${e.attempt}`);
  // Every subscription held was asked for again; a seat gone since is said in forge's words.
  console.log(`link back, ${e.restored.length} subscription(s) restored`);
  for (const { why } of e.refused) console.log(`not restored: ${why}`);
});
const greeting = await forge.nextKind("greeting");
console.log(`forge ${greeting.forge_version_short}, protocol ${greeting.version}`);

// A command whose outcome rides a reply: reply_to is allocated, the body typed by protocol/.
try {
  const material = await forge.command("vault_enrolment_material", {});
  console.log(material === null ? "no vault material" : "vault material released");
} catch (err) {
  if (!(err instanceof ForgeRefusal)) throw err;
  console.log(`${err.what} refused: ${err.why}`);
}

// A seat's snapshot, then its updates in order; a gap in seq is repaired before what follows.
const seat = forge.follow({ session: slot });
for await (const event of seat) {
  if (event.kind === "snapshot") {
    console.log(`${seatName} joined at seq ${event.data.header.seq}`);
    if (event.reread) continue;
    // A message with no reply of its own: settles once forge took it, or rejects with its refusal.
    await forge.sendChecked({ kind: "showing", seat: slot });
    await forge.command("prompt", { key: slot, text, attachments: [] });
    continue;
  }
  const { update, seq, repaired } = event;
  console.log(`${seq ?? "-"} ${update.name}${repaired ? " (repaired)" : ""}`);
  if (update.name === "chat_appended" && update.fields.msg.type === "result") break;
}
console.log(`${seat.gaps.length} gap(s) repaired`);
await forge.close();
// --- to here ---------------------------------------------------------------------------------

/** The arguments: the socket's URL, the seat, the prompt; a usage line and exit 2 when off. */
function usage(args: string[]): [string, string, string] {
  const [url = "", seat = "", text = "say hello"] = args;
  if (!/^wss?:\/\//.test(url) || !parseSlotName(seat)) {
    console.error("usage: client_example.ts ws://HOST:PORT/socket org/project/label [prompt]");
    Deno.exit(2);
  }
  return [url, seat, text];
}
