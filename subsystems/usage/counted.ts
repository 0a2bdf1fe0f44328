/**
 * The messages a report counted, by key, and the file each was counted in: a message the CLI
 * wrote into several files (a fork carries its parent's history) counts once, in the first file
 * in path order (report.ts). No string is made per message: the first key with each hash is
 * kept as the text it lies in and where, and only keys that share a hash with another are
 * compared whole. The fold runs once per process, mostly before V8 optimizes it, so each step
 * counts.
 */
export class CountedMessages {
  readonly #seen = new Map<number, number>();
  readonly #firstText: string[] = [];
  readonly #firstAt: number[] = [];
  readonly #firstLength: number[] = [];
  /** Where each message was counted: the path of the file, by the same index as #firstText. */
  readonly #firstFile: string[] = [];
  /** Keys that share a hash with another, each with the file it was counted in. */
  readonly #shared = new Map<string, string>();
  #file = "";
  #copying = false;
  /**
   * A message met again here was counted already in a file after this one in path order. A
   * fold of every file in order would have counted it here (and its project may be this
   * file's): only a fold from scratch says what that report is.
   */
  later = false;

  /** The file whose messages come next; `copying`: they are ones a later scan added, whose keys
   * are then copied (the text they are sliced from is the file's whole key text again, and a
   * report kept from scan to scan would otherwise hold every earlier one). */
  inFile(path: string, copying: boolean): void {
    this.#file = path;
    this.#copying = copying;
  }

  /** Whether the message keyed `text[at, at + length)` was counted already; else it is now. */
  counted(hash: number, text: string, at: number, length: number): boolean {
    const first = this.#seen.get(hash);
    if (first === undefined) {
      this.#seen.set(hash, this.#firstText.length);
      this.#firstText.push(this.#copying ? copied(text.slice(at, at + length)) : text);
      this.#firstAt.push(this.#copying ? 0 : at);
      this.#firstLength.push(length);
      this.#firstFile.push(this.#file);
      return false;
    }
    if (this.#firstLength[first] === length) {
      const other = this.#firstText[first], from = this.#firstAt[first];
      let i = 0;
      while (i < length && other.charCodeAt(from + i) === text.charCodeAt(at + i)) i++;
      if (i === length) return this.#again(this.#firstFile[first]);
    }
    const key = text.slice(at, at + length); // another key with this hash: compare whole keys
    const counted = this.#shared.get(key);
    if (counted !== undefined) return this.#again(counted);
    this.#shared.set(this.#copying ? copied(key) : key, this.#file);
    return false;
  }

  /** `s` as the set keeps it: copied when the file's messages are a later scan's. */
  own(s: string): string {
    return this.#copying ? copied(s) : s;
  }

  /** A message counted already, in `file`: true, noting a count in a later file. */
  #again(file: string): boolean {
    if (file > this.#file) this.later = true;
    return true;
  }
}

/** `s` in storage of its own: a slice can hold on to the whole string it was cut from. */
function copied(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}
