/**
 * forge's command line: `--config PATH`, `--port N`, `--gateway-port N`, each as `--name V` or
 * `--name=V`. Read by main.ts and by the launcher (tools/launch.ts), which must agree on them.
 */

/** The value a flag is given, or null when it is not given. */
export function flagOf(args: readonly string[], name: string): string | null {
  const i = args.indexOf(name);
  if (i >= 0 && i + 1 < args.length) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline ? inline.slice(name.length + 1) : null;
}

/**
 * A port flag's number (0 asks for a free port), or undefined when it is not given; a value that
 * is not a port is refused in a sentence naming the flag, before anything binds it.
 */
export function portFlag(args: readonly string[], name: string): number | undefined {
  const text = flagOf(args, name);
  return text === null ? undefined : portNumber(text, name);
}

/** `text` as a port for the flag `name`, or a sentence naming the flag and what it was given. */
export function portNumber(text: string, name: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`${name} takes a port, a whole number from 0 to 65535, not \`${text}\``);
  }
  return port;
}

/** The flags forge takes, each with a value, as its refusals spell them. */
const FORGE_FLAGS = { "--config": "PATH", "--port": "N", "--gateway-port": "N" } as const;

/**
 * Refuses a command line holding anything but forge's flags, each with its value: a misspelt
 * flag (`--prot 8795`) would otherwise be passed over and forge start on what it did not ask for.
 */
export function checkFlags(args: readonly string[]): void {
  const known = Object.keys(FORGE_FLAGS);
  const takes = "forge takes " +
    Object.entries(FORGE_FLAGS).map(([flag, value]) => `${flag} ${value}`).join(", ");
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (known.some((f) => arg.startsWith(`${f}=`))) continue;
    if (!known.includes(arg)) {
      throw new Error(`forge does not know \`${arg}\` on its command line: ${takes}`);
    }
    if (i + 1 >= args.length) throw new Error(`${arg} needs a value after it: ${takes}`);
    i++;
  }
}
