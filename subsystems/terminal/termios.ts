/**
 * Reads the PTY's line discipline flags through libc's tcgetattr on the master fd. On Linux a
 * TCGETS on a pty master answers for the slave, so this is the mode the foreground program set:
 * a password prompt (sudo, ssh, `read -s`) turns ECHO off and keeps ICANON on, while a
 * full-screen program or readline turns both off.
 */

/** The two lflag bits the state tracker reads. */
export interface TermiosFlags {
  echo: boolean;
  icanon: boolean;
}

// Linux termios: c_iflag, c_oflag, c_cflag, c_lflag (u32 each), c_line, c_cc[32], speeds.
const LFLAG_OFFSET = 12;
const TERMIOS_BYTES = 64;
const ICANON = 0o2;
const ECHO = 0o10;

type Libc = Deno.DynamicLibrary<{ tcgetattr: { parameters: ["i32", "buffer"]; result: "i32" } }>;
let libc: Libc | null | undefined;

function openLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    libc = Deno.dlopen("libc.so.6", {
      tcgetattr: { parameters: ["i32", "buffer"], result: "i32" },
    });
  } catch {
    // Not glibc, or no --allow-ffi: the caller falls back to reading the prompt text.
    libc = null;
  }
  return libc;
}

/** True when tcgetattr can be called here (glibc and FFI allowed). */
export function termiosAvailable(): boolean {
  return openLibc() !== null;
}

/** The flags of the terminal on `fd`; null when libc is unavailable or the fd is not a tty. */
export function readTermios(fd: number): TermiosFlags | null {
  const lib = openLibc();
  if (!lib) return null;
  const buf = new Uint8Array(TERMIOS_BYTES);
  if (lib.symbols.tcgetattr(fd, buf) !== 0) return null;
  const lflag = new DataView(buf.buffer).getUint32(LFLAG_OFFSET, true);
  return { echo: (lflag & ECHO) !== 0, icanon: (lflag & ICANON) !== 0 };
}
