/**
 * A map holding at most `capacity` entries, for the caches a long-running process keeps per key (accounts,
 * tokens, request shapes): past the capacity the entry used longest ago goes, so what the process keeps
 * stops growing however many keys it meets, and the keys in use stay cached (a cache emptied at once
 * when full makes every caller miss together).
 */
export class BoundedMap<K, V> {
  // A Map iterates in insertion order: an entry read is moved to the end, so the first is the one used longest ago.
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  clear(): void {
    this.entries.clear();
  }
}
