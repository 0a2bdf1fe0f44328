import { z } from "zod";
import {
  type DictateAxes,
  DictateDeviceChoice,
  type DictateNotice,
  DictateOverrides,
  type DictateOverrideUpdate,
  type DictateSurface,
  type Slot,
  slotName,
} from "../../protocol/mod.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../server/subsystem.ts";

const Stored = z.object({
  overrides: z.record(z.string(), DictateOverrides),
  device: DictateDeviceChoice.nullable(),
});
type Stored = z.infer<typeof Stored>;

/**
 * The per-seat dictation state the server keeps: each seat's axis overrides (kept across restarts
 * in `state/dictate/prefs.json`), the process-wide device pick, and each composer's carried
 * landing (`notice`, until the person sends a prompt). spec: set_dictate_override,
 * set_dictate_device, session > state > dictate_overrides, composer > notice. The file is kept
 * by forge's keeper: a damaged one is kept aside and reported, seats run on the defaults, and
 * every change is refused in the keeper's words until it is mended (then read back) or removed.
 */
export class SeatPrefs {
  #stored: Stored = { overrides: {}, device: null };
  readonly #notices = new Map<string, DictateNotice>();

  private constructor(private readonly file: KeptFile<Stored>) {}

  static async open(keeper: StateKeeper, dir: string): Promise<SeatPrefs> {
    const prefs = new SeatPrefs(keeper.file(`${dir}/prefs.json`, {
      area: "the dictation preferences",
      parse: schemaParse(Stored, "a set of dictation preferences"),
    }));
    const read = await prefs.file.read();
    if (read.state === "read") prefs.#stored = read.value;
    return prefs;
  }

  overrides(slot: Slot): DictateOverrides {
    return this.#stored.overrides[slotName(slot)] ?? {};
  }

  /** Applies one override (or the reset); returns the seat's overrides after it. */
  async override(slot: Slot, update: DictateOverrideUpdate): Promise<DictateOverrides> {
    await this.#mended();
    const name = slotName(slot);
    const next = update === "reset" ? {} : { ...this.overrides(slot), ...update };
    const stored = structuredClone(this.#stored);
    if (Object.keys(next).length === 0) delete stored.overrides[name];
    else stored.overrides[name] = next;
    await this.#save(stored);
    return next;
  }

  /** A seat's axes in force: its overrides over the `[dictate]` defaults. */
  axes(slot: Slot, defaults: DictateAxes): DictateAxes {
    return { ...defaults, ...this.overrides(slot) };
  }

  get device(): DictateDeviceChoice | null {
    return this.#stored.device;
  }

  async pickDevice(pick: DictateDeviceChoice | null): Promise<void> {
    await this.#mended();
    await this.#save({ ...this.#stored, device: pick });
  }

  land(slot: Slot, text: string, surface: DictateSurface | null): void {
    this.#notices.set(slotName(slot), { text, carried: true, surface });
  }

  notice(slot: Slot): DictateNotice | null {
    return this.#notices.get(slotName(slot)) ?? null;
  }

  /** The person sent a prompt on the seat: the carried landing is spent. */
  sent(slot: Slot): void {
    this.#notices.delete(slotName(slot));
  }

  /** A damaged file refuses (the keeper's words); a mended one is read back first. */
  async #mended(): Promise<void> {
    const read = await this.file.writable();
    if (read) this.#stored = read.state === "read" ? read.value : { overrides: {}, device: null };
  }

  /** The prefs move only once the write landed. */
  async #save(stored: Stored): Promise<void> {
    await this.file.write(stored);
    this.#stored = stored;
  }
}
