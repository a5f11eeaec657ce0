/**
 * An open-addressing table of 32-bit hashes, each given a slot number, sized once for all it will hold.
 * Health's near-duplicate check keys a million shingle hashes at 10,000 memories: a `Map` of that size
 * rehashes as it grows, each time in one block of tens of milliseconds that no pause can split
 * (docs/memory.md#vault-upkeep), and its entries are garbage the collector walks again and again.
 */
export class HashSlots {
  private readonly keys: Uint32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;

  /** Room for `capacity` distinct hashes at most. */
  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Uint32Array(size);
    this.used = new Uint8Array(size);
    this.mask = size - 1;
  }

  /** Slot numbers run over `[0, size)`: what arrays indexed by slot are sized to. */
  get size(): number {
    return this.keys.length;
  }

  /** The slot of `hash`, taken now if it had none. */
  slot(hash: number): number {
    let at = Math.imul(hash, 0x9e3779b1) >>> 0 & this.mask;
    while (this.used[at] && this.keys[at] !== hash) at = (at + 1) & this.mask;
    if (!this.used[at]) {
      this.used[at] = 1;
      this.keys[at] = hash;
    }
    return at;
  }
}
