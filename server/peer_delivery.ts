import { envelopeText, type Slot, type WrappedPrompt } from "../protocol/mod.ts";
import type { Host } from "./subsystem.ts";

/**
 * Hands a wrapped peer message to `target` as a forged user turn with `source: peer` (waking a
 * sleeping lead) and announces it as `peer_envelope_appended`: the one delivery an agent's
 * message, a worker's report and a client's `deliver_peer_prompt` all make. Rejects as
 * `Host.deliver` does.
 */
export async function deliverPeer(host: Host, target: Slot, wrapped: WrappedPrompt): Promise<void> {
  const uuid = crypto.randomUUID();
  await host.deliver(target, {
    text: envelopeText(wrapped),
    source: "peer",
    uuid,
    announce: { name: "peer_envelope_appended", fields: { key: target, wrapped, uuid } },
  });
}
