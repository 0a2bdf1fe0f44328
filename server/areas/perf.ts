import type { ClientMessageOf } from "../../protocol/mod.ts";
import { RolledFile } from "../log.ts";
import { defineSubsystem, type Host } from "../subsystem.ts";

/**
 * client_perf: a page's own perf records, written to forge-perf-web.log beside forge.log with
 * one rolled copy; nothing answers the batch. spec: What a client sends > client_perf.
 */
export function perfArea(logDir: string) {
  return defineSubsystem({
    id: "perf",
    note: "the web build's perf records",
    switch: null,
    area: null,
    verbs: ["client_perf"],
    commands: [],
    subjects: [],
    binary: [],
    load: () =>
      Promise.resolve({
        create: (_host: Host) => {
          const file = new RolledFile(`${logDir}/forge-perf-web.log`, 8 * 1024 * 1024);
          return {
            verbs: {
              client_perf: (msg: ClientMessageOf<"client_perf">) => {
                for (const record of msg.records) file.append(JSON.stringify(record));
              },
            },
            commands: {},
            subjects: {},
          };
        },
      }),
  });
}
