/**
 * The stores that live in this process or, when instances share a PostgreSQL ledger, in the database
 * (src/postgres/): their contracts, so both implementations sit below the layers that use them.
 */
import { randomBytes } from 'node:crypto'

/** A limit of requests per key and minute: in this process (RateLimiter), or shared by instances (src/postgres/rate-buckets.ts). */
export interface Limiter {
  readonly perMinute: number
  readonly enabled: boolean
  /** Takes one request for `key`: 0 when allowed, else the whole seconds until one is. */
  take(key: string): number | Promise<number>
  sweep(): void | Promise<void>
}

/**
 * Where evidence answers are kept: in this process, or in PostgreSQL shared by every instance of one
 * ledger (src/postgres/answer-cache.ts). Concurrent misses of one key share one computation (single
 * flight), across instances too when shared.
 */
export interface AnswerCache {
  get<T>(key: string, compute: () => Promise<T>, ttlMs: number): Promise<{ value: T; hit: boolean }>
  delete(key: string): void | Promise<void>
}

/** A new wrapper session id: `ses_` and 24 hex digits, as the catalog's `session` parameter accepts. */
export const newSessionId = () => `ses_${randomBytes(12).toString('hex')}`

export interface Session {
  id: string
  /** Leg results by `<route id>|<request key>`: what a follow-up call can reuse instead of computing again. */
  legs: Map<string, unknown>
  expiresAt: number
}

/**
 * Where wrapper sessions live: a client passes `session` back and the legs it already bought are reused
 * (and reported as `reused`). In memory for one instance; in PostgreSQL (src/postgres/session-store.ts) when
 * instances share a ledger, so a session continues on whichever instance the next call reaches.
 */
export interface Sessions {
  /** The live session with this id, or a new one; `resumed` says which. Each use extends the lifetime. */
  open(id: string | undefined): Promise<{ session: Session; resumed: boolean }>
  /** Keeps the legs added to the session since `open`. */
  save(session: Session): Promise<void>
}

/**
 * The ledger (or the PostgreSQL state shared with it) cannot be reached or did not answer in time:
 * nothing may be claimed, so nothing is charged.
 */
export class LedgerUnavailable extends Error {}
