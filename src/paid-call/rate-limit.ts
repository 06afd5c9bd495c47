import { ApiError, type Limiter } from '../core'

/**
 * Token buckets per key (client IP or payer address): `perMinute` requests a minute, bursts up to the
 * same number. A Map lookup and a little arithmetic per request; idle buckets are dropped by `sweep`.
 */
export class RateLimiter implements Limiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  private readonly perSecond: number

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => performance.now() / 1000,
    private readonly maxKeys = 200_000,
  ) {
    this.perSecond = perMinute / 60
  }

  get enabled(): boolean {
    return this.perMinute > 0
  }

  /** Takes one request for `key`: 0 when allowed, else the whole seconds until one is. */
  take(key: string): number {
    if (this.perMinute === 0) return 0
    const now = this.now()
    let bucket = this.buckets.get(key)
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.sweep()
      bucket = { tokens: this.perMinute, at: now }
      this.buckets.set(key, bucket)
    } else {
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perSecond)
      bucket.at = now
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond))
  }

  /** Forgets buckets that have refilled: they behave exactly like new ones. */
  sweep(): void {
    const now = this.now()
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perSecond >= this.perMinute) this.buckets.delete(key)
    }
  }

  get size(): number {
    return this.buckets.size
  }
}

/** The two limits of paid requests (HTTP routes and MCP tools alike), and who to tell when one bites. */
export interface RateLimits {
  /** Per instance: the load balancer in front of several can limit per IP for all of them. */
  ip: RateLimiter
  /** IPv6 clients count by this prefix (RATE_LIMIT_IPV6_PREFIX; see limitKeyOf). */
  ipv6Prefix: number
  /** Per instance, or shared by the instances of one PostgreSQL ledger. */
  payer: Limiter
  onLimited?(scope: 'ip' | 'payer'): void
}

export const rateLimited = (scope: 'ip' | 'payer', retryAfter: number) =>
  new ApiError(
    'rate_limited',
    `Too many requests from this ${scope === 'ip' ? 'client IP' : 'payer address'}; retry in ${retryAfter} s. Nothing was charged.`,
    { scope, retry_after_seconds: retryAfter },
    { retryAfterSeconds: retryAfter },
  )

/** Takes one request of `key` from a limit: the 429 error when it is used up, else null (a promise of it for a shared limit). */
export function overLimit(
  limits: RateLimits | undefined,
  scope: 'ip' | 'payer',
  key: string | undefined,
): ApiError | null | Promise<ApiError | null> {
  const limiter = limits?.[scope]
  if (!key || !limiter?.enabled) return null
  const verdict = (wait: number) => {
    if (wait === 0) return null
    limits!.onLimited?.(scope)
    return rateLimited(scope, wait)
  }
  const wait = limiter.take(key)
  return typeof wait === 'number' ? verdict(wait) : wait.then(verdict)
}
