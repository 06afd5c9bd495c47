/**
 * Results materialised per dataset version. A DuckDB aggregate costs ~1.7 ms of a core, so a query per
 * request caps a route near 600 req/s; the key spaces (destinations x months, countries x months) are
 * small, so each distinct answer is computed once per dataset version and then served from memory.
 * The key includes the dataset version: a new version never sees an old answer. Concurrent misses of
 * one key share a single computation.
 */
export class ResultCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; expires: number }>()
  /** Reports each lookup as a hit or a miss (metrics). */
  onLookup?: (hit: boolean) => void

  constructor(
    private readonly maxEntries = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets a key (an answer that must not be reused, e.g. one a failing provider degraded). */
  delete(key: string): void {
    this.entries.delete(key)
  }

  /**
   * The cached value of `key`, or `compute()` stored under it. `ttlMs` bounds how long an answer that
   * no version pins (live provider evidence) is reused; without it the entry lives until evicted.
   */
  async get<T>(key: string, compute: () => Promise<T>, ttlMs?: number): Promise<{ value: T; hit: boolean }> {
    const existing = this.entries.get(key)
    const live = existing && (existing.expires === Infinity || existing.expires > this.now())
    this.onLookup?.(Boolean(live))
    if (live) {
      // Refresh recency: Map iteration order is insertion order, so re-insert to the back.
      this.entries.delete(key)
      this.entries.set(key, existing)
      return { value: (await existing.value) as T, hit: true }
    }
    if (existing) this.entries.delete(key)
    const pending = compute()
    this.entries.set(key, { value: pending, expires: ttlMs === undefined ? Infinity : this.now() + ttlMs })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    try {
      return { value: await pending, hit: false }
    } catch (e) {
      this.entries.delete(key) // never cache a failure
      throw e
    }
  }
}
