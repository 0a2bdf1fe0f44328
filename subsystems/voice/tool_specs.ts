import { z } from "zod";
import { defineTool } from "../../server/subsystem.ts";

/** The voice family: one tool. */
export const VOICE_TOOLS = [defineTool({
  name: "voice__say",
  family: "voice",
  description: "Speak an update aloud to the person listening to this session. Pass the " +
    "substance of the update as plain conversational sentences (no markdown, code or paths); " +
    "it is split at sentence boundaries and the clips play in order. Returns once the clips " +
    "are queued. With nobody listening it says so and speaks nothing. At most 2000 characters.",
  input: z.object({ text: z.string().describe("what to say, in plain sentences") }).strict(),
  roles: ["lead", "worker"],
  readOnly: false,
})] as const;
