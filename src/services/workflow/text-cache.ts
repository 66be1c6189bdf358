/**
 * A cache keyed by definition text (up to 1 MiB each), bounded by entries AND by the characters its keys hold:
 * a count bound alone let 1,000 distinct 1 MiB definitions pin ~2 GB of key strings. Oldest entries go first;
 * a key larger than the whole budget is never kept.
 */
export class TextKeyedCache<V> {
  private readonly map = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxChars) return;
    if (this.map.has(key)) this.delete(key);
    while (this.map.size >= this.maxEntries || (this.map.size > 0 && this.chars + key.length > this.maxChars)) {
      this.delete(this.map.keys().next().value as string);
    }
    this.map.set(key, value);
    this.chars += key.length;
  }

  private delete(key: string): void {
    if (this.map.delete(key)) this.chars -= key.length;
  }

  get size(): number {
    return this.map.size;
  }

  /** Characters held by the keys. */
  get heldChars(): number {
    return this.chars;
  }
}
