/**
 * PocketSphinx 0.8 (Debian `libpocketsphinx3`, `pocketsphinx-en-us`) in-process through Deno FFI.
 * Loaded only inside the decode Worker: a batch decode runs for seconds and must never hold the
 * server's event loop. The binding targets the 0.8/5prealpha API (`cmd_ln_parse_r`, `ps_init`);
 * PocketSphinx 5.x has another API and soname, and is refused at load by the soname.
 */

/** Where Debian puts the shared objects and the en-us model. */
export const PS_LIBRARY_DIR = "/usr/lib/x86_64-linux-gnu";
export const PS_LIBRARIES = [
  `${PS_LIBRARY_DIR}/libpocketsphinx.so.3`,
  `${PS_LIBRARY_DIR}/libsphinxbase.so.3`,
];
export const PS_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

const enc = new TextEncoder();
const cstr = (s: string) => enc.encode(s + "\0");

function open() {
  const ps = Deno.dlopen(PS_LIBRARIES[0], {
    ps_args: { parameters: [], result: "pointer" },
    ps_init: { parameters: ["pointer"], result: "pointer" },
    ps_start_utt: { parameters: ["pointer"], result: "i32" },
    ps_process_raw: { parameters: ["pointer", "buffer", "usize", "i32", "i32"], result: "i32" },
    ps_end_utt: { parameters: ["pointer"], result: "i32" },
    ps_get_hyp: { parameters: ["pointer", "buffer"], result: "pointer" },
    ps_free: { parameters: ["pointer"], result: "i32" },
  });
  const sb = Deno.dlopen(PS_LIBRARIES[1], {
    cmd_ln_parse_r: {
      parameters: ["pointer", "pointer", "i32", "buffer", "i32"],
      result: "pointer",
    },
    cmd_ln_free_r: { parameters: ["pointer"], result: "i32" },
  });
  return { ps: ps.symbols, sb: sb.symbols };
}

/**
 * One decoder. It only ever decodes whole takes in one `full_utt` pass: a decoder that streamed
 * even once switches its cepstral mean to the running prior for good, which costs the first take
 * on a new microphone most of its words (measured on PocketSphinx 0.8: a clip a fresh decoder
 * reads at 18% word errors reads at 100% on a decoder that has streamed once).
 */
export class PocketSphinxDecoder {
  readonly #lib = open();
  readonly #config: Deno.PointerValue;
  readonly #dec: Deno.PointerValue;

  constructor(modelDir = PS_MODEL_DIR) {
    const args = [
      "pocketsphinx",
      "-hmm",
      `${modelDir}/en-us`,
      "-dict",
      `${modelDir}/cmudict-en-us.dict`,
      "-lm",
      `${modelDir}/en-us.lm.bin`,
      "-logfn",
      "/dev/null",
    ];
    const bufs = args.map(cstr); // alive until the parse returns: sphinxbase copies them
    const argv = new BigUint64Array(bufs.length + 1);
    bufs.forEach((b, i) => {
      argv[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(b)!));
    });
    this.#config = this.#lib.sb.cmd_ln_parse_r(null, this.#lib.ps.ps_args(), args.length, argv, 1);
    if (!this.#config) throw new Error(`the PocketSphinx model at ${modelDir} did not parse`);
    this.#dec = this.#lib.ps.ps_init(this.#config);
    if (!this.#dec) throw new Error(`the PocketSphinx model at ${modelDir} did not load`);
  }

  /** The words for one whole take (16 kHz mono i16), lower case, space separated. */
  decode(pcm: Int16Array): string {
    const ps = this.#lib.ps;
    if (ps.ps_start_utt(this.#dec) < 0) throw new Error("the decoder refused to start a take");
    ps.ps_process_raw(this.#dec, pcm, BigInt(pcm.length), 0, 1);
    if (ps.ps_end_utt(this.#dec) < 0) throw new Error("the decoder refused to end a take");
    const hyp = ps.ps_get_hyp(this.#dec, new Int32Array(1));
    return hyp ? Deno.UnsafePointerView.getCString(hyp) : "";
  }

  close(): void {
    this.#lib.ps.ps_free(this.#dec);
    this.#lib.sb.cmd_ln_free_r(this.#config);
  }
}
