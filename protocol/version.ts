/**
 * The protocol this server speaks. Fixed rather than negotiated: a client records it beside its own
 * and draws a mismatch; nothing is refused over it. spec: The greeting.
 */
export const PROTOCOL_VERSION = 29;

/** forge's own release number; the build stamp (git sha) is added by the server at boot. */
export const FORGE_RELEASE = "0.1.0";
