import { ownWords } from "../../server/subsystem.ts";
import type { Command } from "../../protocol/mod.ts";
import type { EnrolmentMaterial } from "../../protocol/vault.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import type { VaultCards } from "./cards.ts";
import type { EnrolmentStore } from "./enrolments.ts";
import type { VaultSession } from "./session.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

/**
 * The vault's commands; their fields arrive parsed by the schemas in protocol/vault.ts, a bad
 * field refused by the dispatcher (in the reply's body for the four reply commands).
 * `respond_vault_ask` answers a parked card; the four enrolment commands
 * answer through `reply`, a refusal as the reply's body (spec: command > reply_to); `vault_lock`
 * locks the shared session.
 */
export function vaultCommands(
  host: Host,
  session: VaultSession,
  cards: VaultCards,
  store: EnrolmentStore,
  configured: () => boolean,
) {
  const needOpenable = (what: string) => {
    if (!configured()) {
      throw new Refusal(
        what,
        `${what}: [vault] names no server_url and email, so there is no vault`,
      );
    }
  };
  return {
    respond_vault_ask: async ({ fields: cmd }: Cmd<"respond_vault_ask">, peer: Peer) => {
      const what = "respond_vault_ask";
      // spec: subscribe > answering: a read-only connection never answers for a person.
      if (!peer.answering) {
        throw new Refusal(what, `${what}: this connection did not subscribe as answering`, cmd.key);
      }
      const answer = cmd.answer; // parsed by protocol/vault.ts VaultAnswer, a bad one refused by name
      let card;
      try {
        card = cards.find(cmd.key, cmd.id);
      } catch (err) {
        const why = ownWords(err, {
          log: host.log,
          event: "vault_card_unfound",
          fallback: "the card could not be read; the log has the cause",
        });
        throw new Refusal(what, `${what}: ${why}`, cmd.key);
      }
      if (answer === "decline") {
        host.asks.answer(cmd.key, "vault_ask", cmd.id, peer, { ending: "declined" });
        return;
      }
      if ("approve" in answer) {
        const material = answer.approve.unlock;
        if (material && !session.locked) {
          throw new Refusal(
            what,
            `${what}: card ${cmd.id} did not ask for unlock material: the vault is open`,
            cmd.key,
          );
        }
        if (!material && session.locked) {
          throw new Refusal(
            what,
            `${what}: the vault is locked, so card ${cmd.id} needs the master password and code, or released material`,
            cmd.key,
          );
        }
        if (material) {
          needOpenable(what);
          card.answering = true;
          try {
            await session.unlock(
              "password" in material
                ? { password: material.password, code: material.code }
                : material,
            );
          } catch (err) {
            // A wrong password or code, or a server that cannot be reached or read, is answered in
            // forge's words (an engine's message stays in the log); the card stays parked.
            const why = ownWords(err, {
              log: host.log,
              event: "vault_unlock_failed",
              fallback: "the unlock failed inside forge; the log has the cause",
              fields: { seat: cmd.key, id: cmd.id },
            });
            host.log.warn("vault_unlock_refused", { seat: cmd.key, id: cmd.id, why });
            throw new Refusal(what, `${what}: the vault did not unlock: ${why}`, cmd.key);
          } finally {
            card.answering = false;
          }
        }
      }
      host.asks.answer(cmd.key, "vault_ask", cmd.id, peer, { ending: "answered", answer });
    },

    vault_enrolment_material: (_: Cmd<"vault_enrolment_material">, peer: Peer) => {
      const what = "vault_enrolment_material";
      if (!peer.answering) {
        throw new Refusal(what, `${what}: the material goes only to a connection that answers`);
      }
      const material: EnrolmentMaterial = session.material();
      return material;
    },

    biometric_enrol: async ({ fields: f }: Cmd<"biometric_enrol">) => {
      const what = "biometric_enrol";
      // spec: enrolling again "is the settings card's enrol, which needs the vault open".
      if (session.locked) {
        throw new Refusal(what, `${what}: the vault is locked; enrol while it is open`);
      }
      await store.enrol(f.device, f.purpose, f.blob);
      host.log.info("biometric_enrolled", { device: f.device, purpose: f.purpose });
      return true as const;
    },

    biometric_release: async ({ fields: f }: Cmd<"biometric_release">) => {
      const what = "biometric_release";
      const blob = await store.release(f.device, f.purpose);
      if (blob === null) {
        throw new Refusal(what, `${what}: ${f.device} has no enrolment for ${f.purpose}`);
      }
      host.log.info("biometric_released", { device: f.device, purpose: f.purpose });
      return blob;
    },

    biometric_rewrite: async ({ fields: f }: Cmd<"biometric_rewrite">) => {
      const done = await store.rewrite(f.device, f.purpose, f.blob);
      host.log.info("biometric_rewrite", { device: f.device, purpose: f.purpose, rewritten: done });
      return done;
    },

    vault_lock: () => {
      session.lock("vault_lock");
    },
  };
}
