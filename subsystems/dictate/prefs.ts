import {
  type DictateAxes,
  type DictateDeviceChoice,
  type DictateNotice,
  type DictateOverrides,
  type DictateOverrideUpdate,
  type DictateSurface,
  type Slot,
  slotName,
} from "../../protocol/mod.ts";

interface Stored {
  overrides: Record<string, DictateOverrides>;
  device: DictateDeviceChoice | null;
}

/**
 * The per-seat dictation state the server keeps: each seat's axis overrides (kept across restarts
 * in `state/dictate/prefs.json`), the process-wide device pick, and each composer's carried
 * landing (`notice`, until the person sends a prompt). spec: set_dictate_override,
 * set_dictate_device, session > state > dictate_overrides, composer > notice.
 */
export class SeatPrefs {
  #stored: Stored = { overrides: {}, device: null };
  readonly #notices = new Map<string, DictateNotice>();

  private constructor(private readonly file: string) {}

  static async open(dir: string): Promise<SeatPrefs> {
    await Deno.mkdir(dir, { recursive: true });
    const prefs = new SeatPrefs(`${dir}/prefs.json`);
    try {
      const raw = JSON.parse(await Deno.readTextFile(prefs.file)) as Partial<Stored>;
      prefs.#stored = { overrides: raw.overrides ?? {}, device: raw.device ?? null };
    } catch {
      // No file yet (or an unreadable one): every seat starts on the defaults.
    }
    return prefs;
  }

  overrides(slot: Slot): DictateOverrides {
    return this.#stored.overrides[slotName(slot)] ?? {};
  }

  /** Applies one override (or the reset); returns the seat's overrides after it. */
  async override(slot: Slot, update: DictateOverrideUpdate): Promise<DictateOverrides> {
    const name = slotName(slot);
    const next = update === "reset" ? {} : { ...this.overrides(slot), ...update };
    if (Object.keys(next).length === 0) delete this.#stored.overrides[name];
    else this.#stored.overrides[name] = next;
    await this.#save();
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
    this.#stored.device = pick;
    await this.#save();
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

  async #save(): Promise<void> {
    const tmp = `${this.file}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(this.#stored));
    await Deno.rename(tmp, this.file);
  }
}
