import { z } from "zod";

/** A seat terminal's summary. spec: terminal_changed; the session table's `terminal` row. */
export const TerminalSummary = z.object({
  id: z.number().int().describe("the terminal's wire id"),
  shell: z.string(),
  cwd: z.string(),
  cols: z.number().int(),
  rows: z.number().int(),
  alive: z.boolean().describe("whether the shell still runs"),
  state: z.object({
    kind: z.enum(["opened", "idle", "running", "password", "exited", "closed"]),
    source: z.enum(["spawn", "foreground_pgrp", "termios", "prompt_text", "pty_exit", "close"]),
    command: z.string().optional(),
    code: z.number().int().nullable().optional(),
    signal: z.number().int().nullable().optional(),
  }).strict().describe("what the shell is doing and how that was detected"),
  title: z.string().nullable(),
  held: z.boolean().describe("whether a hand-off holds the terminal"),
}).strict();
export type TerminalSummary = z.infer<typeof TerminalSummary>;
