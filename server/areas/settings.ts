import type { ClientMessageOf, Command } from "../../protocol/mod.ts";
import { offKind } from "../config/edit_kinds.ts";
import { settingsGuard } from "../config/guards.ts";
import type { ConfigStore } from "../config/store.ts";
import { saveSettings } from "../config/write/writer.ts";
import { defineSubsystem, type Host, type Peer, toolHandlers } from "../subsystem.ts";
import { SETTINGS_TOOLS, settingsGet } from "./settings_tools.ts";
import { SETTINGS_WRITE_TOOLS, settingsWriteHandlers } from "./settings_write_tool.ts";

/**
 * settings_edit: a batch of edits saved through the format-preserving writer, checked against the
 * boot loader and the identity-diff guards. A save that writes is answered settings_saved and the
 * reload push follows to every connection; one that writes nothing is answered settings_refused
 * with its reason. spec: Editing the config.
 */
export function settingsArea(configStore: () => ConfigStore) {
  return defineSubsystem({
    id: "settings",
    note: "the effective config's edits",
    switch: null,
    area: null,
    verbs: ["settings_edit"],
    commands: ["respond_settings_write"],
    subjects: [],
    binary: [],
    tools: [...SETTINGS_TOOLS, ...SETTINGS_WRITE_TOOLS],
    load: () =>
      Promise.resolve({
        create: (host: Host) => ({
          verbs: {
            settings_edit: async (msg: ClientMessageOf<"settings_edit">, peer: Peer) => {
              const store = configStore();
              const off = offKind(msg.edits, store.areas);
              const result = off
                ? { ok: false as const, reason: "invalid" as const, ...off }
                : await saveSettings({
                  path: store.loaded.path,
                  fingerprint: msg.fingerprint,
                  edits: msg.edits,
                  validate: (text) => store.validate(text),
                  guard: (before, after) => settingsGuard(before, after, fleetFacts(host)),
                });
              if (!result.ok) {
                host.log.info("settings_refused", {
                  id: msg.id,
                  reason: result.reason,
                  key_path: result.key_path,
                });
                peer.send({
                  kind: "settings_refused",
                  reason: result.reason,
                  id: msg.id,
                  message: result.message,
                  key_path: result.key_path,
                });
                return;
              }
              host.log.info("settings_saved", {
                id: msg.id,
                keys: msg.edits.map((e) => e.key_path),
              });
              peer.send({ kind: "settings_saved", id: msg.id });
              // The watcher would see the rename too; reloading here puts the push right behind the answer.
              await store.reload();
            },
          },
          commands: {
            // spec: Editing the config: the blocked settings__set call waits for this answer.
            respond_settings_write: (
              c: Extract<Command, { name: "respond_settings_write" }>,
              peer: Peer,
            ) => {
              const { key, id, approved } = c.fields;
              host.asks.answer(
                key,
                "settings_write",
                id,
                peer,
                approved ? { ending: "answered", answer: true } : { ending: "declined" },
              );
            },
          },
          subjects: {},
          tools: {
            ...toolHandlers(SETTINGS_TOOLS)({
              settings__get: settingsGet(() => configStore().document),
            }),
            ...settingsWriteHandlers({
              host,
              store: configStore,
              guard: (before, after) => settingsGuard(before, after, fleetFacts(host)),
            }),
          },
        }),
      }),
  });
}

function fleetFacts(host: Host) {
  const live = () => host.workspace.seats().filter((s) => s.sessionId() !== null);
  return {
    liveProjects: () => new Set(live().map((s) => s.project.name)),
    liveAccounts: () =>
      new Set(
        live().flatMap((s) =>
          host.config().orgs.find((o) => o.name === s.project.org)?.accounts.slice(0, 1) ?? []
        ),
      ),
  };
}
