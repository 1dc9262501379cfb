/**
 * What is remembered for a short while (the platform's accepted tokens and count estimates, the
 * console's verified sessions and menus): entries that expire at a given time, at most
 * `maxEntries` of them; when full, the oldest leaves.
 */
export class ExpiringCache<K, V> {
  readonly #maxEntries: number;
  readonly #entries = new Map<K, { value: V; until: number }>();

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /** Keeps `value` until the time `until` (ms since the epoch). */
  set(key: K, value: V, until: number): void {
    if (this.#entries.size >= this.#maxEntries && !this.#entries.has(key)) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, until });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }
}
