/** Each seat's current tab number, telling `changed` when one moves (the book keeps it). */
export class CurrentTabs extends Map<string, number> {
  constructor(private readonly changed: () => void) {
    super();
  }
  override set(seat: string, tab: number): this {
    const moved = this.get(seat) !== tab;
    super.set(seat, tab);
    if (moved) this.changed();
    return this;
  }
  override delete(seat: string): boolean {
    const had = super.delete(seat);
    if (had) this.changed();
    return had;
  }
  override clear(): void {
    const had = this.size > 0;
    super.clear();
    if (had) this.changed();
  }
}
