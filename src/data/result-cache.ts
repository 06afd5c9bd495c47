/**
 * Results materialised per dataset version. A DuckDB aggregate costs ~1.7 ms of a core, so a query per
 * request caps a route near 600 req/s; the key spaces (destinations x months, countries x months) are
 * small, so each distinct answer is computed once per dataset version and then served from memory.
 * The key includes the dataset version: a new version never sees an old answer. Concurrent misses of
 * one key share a single computation.
 *
 * Bounded by bytes (RESULT_CACHE_MAX_MB), least recently used first: the China answers it also holds
 * run from a few KB to a few hundred, so a count of entries alone let memory climb under varied load.
 * An entry's size is estimated once, when it resolves, from its JSON text (sizeOf).
 */
interface Entry {
  value: Promise<unknown>
  expires: number
  /** Estimated once resolved; 0 while computing. */
  bytes: number
}

export class ResultCache {
  private readonly entries = new Map<string, Entry>()
  private bytes = 0
  /** Reports each lookup as a hit or a miss (metrics). */
  onLookup?: (hit: boolean) => void

  private readonly maxBytes: number
  private readonly maxEntries: number
  private readonly now: () => number

  constructor(options: { maxBytes?: number; maxEntries?: number; now?: () => number } = {}) {
    this.maxBytes = options.maxBytes ?? 96 * 1024 * 1024
    this.maxEntries = options.maxEntries ?? 20_000
    this.now = options.now ?? Date.now
  }

  /** Estimated bytes held, and entries (metrics, tests). */
  get size(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size }
  }

  /** Forgets a key (an answer that must not be reused, e.g. one a failing provider degraded). */
  delete(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.bytes -= entry.bytes
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
    if (existing) this.delete(key)
    const pending = compute()
    const entry: Entry = { value: pending, expires: ttlMs === undefined ? Infinity : this.now() + ttlMs, bytes: 0 }
    this.entries.set(key, entry)
    let value: T
    try {
      value = await pending
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key) // never cache a failure
      throw error
    }
    if (this.entries.get(key) === entry) {
      entry.bytes = sizeOf(value)
      this.bytes += entry.bytes
      this.evict(key)
    }
    return { value, hit: false }
  }

  /** Least recently used first, never `keep` (its request is reading it), until within both bounds. */
  private evict(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) return
      if (key === keep || entry.bytes === 0) continue // the one just stored, and those still computing
      this.entries.delete(key)
      this.bytes -= entry.bytes
    }
  }
}

/** Estimated bytes of a cached value: its JSON text (a lower bound of what the objects hold), buffers by length. */
export function sizeOf(value: unknown): number {
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return value.byteLength
  try {
    return (JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))?.length ?? 0) * 2 + 64
  } catch {
    return 1024 // not JSON (a cycle): counted, if only roughly
  }
}
