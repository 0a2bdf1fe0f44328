/**
 * One file's records as a reader thread sends them: the numbers in one Float64Array (moved, not
 * copied), the ids as two string lists, model and cwd as indexes into the file's few distinct
 * values. Cloning an object per record cost more than reading it (issue 14: 3 us a record,
 * serialize and deserialize, against well under 1 us to read it from the bytes).
 *
 * A file's records keep the first line of each message only: the CLI writes one line per
 * content block, each with the same id and usage, and the report counts a message once, at its
 * first line in path order, so a later line of the same message in the same file never counts.
 */
import type { TranscriptRead, UsageRecord } from "./transcript.ts";

/** The numbers of one record, in this order. */
const NUMS = 9;

export interface PackedRead {
  nums: Float64Array<ArrayBuffer>;
  keys: (string | null)[];
  requestIds: (string | null)[];
  models: string[];
  cwds: string[];
  skipped: number;
}

/** The first record of each message (by key); records without a key are each kept. */
export function firstOfEach(read: TranscriptRead): TranscriptRead {
  const seen = new Set<string>();
  const records = read.records.filter((r) => {
    if (r.key === null) return true;
    if (seen.has(r.key)) return false;
    seen.add(r.key);
    return true;
  });
  return { records, skipped: read.skipped };
}

export function pack(read: TranscriptRead): PackedRead {
  const n = read.records.length;
  const nums = new Float64Array(n * NUMS);
  const keys: (string | null)[] = new Array(n);
  const requestIds: (string | null)[] = new Array(n);
  const models = new Map<string, number>(), cwds = new Map<string, number>();
  const indexOf = (m: Map<string, number>, s: string) => {
    let i = m.get(s);
    if (i === undefined) m.set(s, i = m.size);
    return i;
  };
  read.records.forEach((r, i) => {
    const o = i * NUMS;
    nums[o] = r.at;
    nums[o + 1] = r.input;
    nums[o + 2] = r.output;
    nums[o + 3] = r.cache_creation;
    nums[o + 4] = r.cache_creation_1h;
    nums[o + 5] = r.cache_read;
    nums[o + 6] = r.fast ? 1 : 0;
    nums[o + 7] = indexOf(models, r.model);
    nums[o + 8] = indexOf(cwds, r.cwd);
    keys[i] = r.key;
    requestIds[i] = r.requestId;
  });
  return {
    nums,
    keys,
    requestIds,
    models: [...models.keys()],
    cwds: [...cwds.keys()],
    skipped: read.skipped,
  };
}

export function unpack(p: PackedRead, intern: (s: string) => string): TranscriptRead {
  const models = p.models.map(intern), cwds = p.cwds.map(intern), nums = p.nums;
  const records: UsageRecord[] = new Array(p.keys.length);
  for (let i = 0; i < records.length; i++) {
    const o = i * NUMS;
    records[i] = {
      key: p.keys[i],
      at: nums[o],
      model: models[nums[o + 7]],
      cwd: cwds[nums[o + 8]],
      requestId: p.requestIds[i],
      input: nums[o + 1],
      output: nums[o + 2],
      cache_creation: nums[o + 3],
      cache_creation_1h: nums[o + 4],
      cache_read: nums[o + 5],
      fast: nums[o + 6] === 1,
    };
  }
  return { records, skipped: p.skipped };
}
