import { ApiError } from '../../core'

/** Misses remembered at most (oldest forgotten first): distinct keywords cannot grow it. */
const MAX_MISSES = 4096

/**
 * Evidence requests already answered "no evidence" (every provider answered, none had anything): asked
 * again before the answer would have expired (the family's TTL, and the corpus version for the sample),
 * they get the same free 404 before the 402, so a buyer never pays to learn what is already known.
 */
export class KnownMisses {
  private readonly misses = new Map<string, { error: ApiError; until: number }>()
  /** Changes with every miss learned: the unpaid 402s remembered for these requests are then forgotten (http/unpaid-answers.ts). */
  version = 0

  constructor(private readonly now: () => number = Date.now) {}

  /** The 404 already known for this answer key, while it is fresh. */
  get(key: string): ApiError | undefined {
    const miss = this.misses.get(key)
    if (!miss) return undefined
    if (miss.until > this.now()) return miss.error
    this.misses.delete(key)
    return undefined
  }

  /** Remembers a computed 404 (not_found only: a provider failure is no knowledge) for `ttlMs`. */
  learn(key: string, error: unknown, ttlMs: number): void {
    if (!(error instanceof ApiError) || error.code !== 'not_found' || ttlMs <= 0) return
    if (this.misses.size >= MAX_MISSES) this.misses.delete(this.misses.keys().next().value!)
    this.misses.set(key, { error, until: this.now() + ttlMs })
    this.version++
  }
}
