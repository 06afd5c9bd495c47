import type { AnswerCache, Logger } from '../core'
import type { Postgres } from './client'

/** How long one computation may hold a key before another instance takes it over (its instance died). */
const LEASE_SECONDS = 120
/** How often an instance waiting for another's computation looks again. */
const POLL_MS = 100

/** The database's clock, in seconds: instances with skewed clocks agree on expiry and leases. */
const NOW = 'extract(epoch from clock_timestamp())'

/**
 * Live evidence answers shared by every instance of one PostgreSQL ledger: an answer computed on one
 * instance is a hit on all of them until it expires, and concurrent misses of one key, on any instances,
 * share one computation: the first takes a lease on the key, the others wait for its answer (or take the
 * lease over once it expires: its instance died). So N instances do not pay the providers N times.
 *
 * The cache only saves provider requests: when the database cannot be reached the answer is computed
 * here, and the paid request goes on (the ledger itself then refuses it, if it is the ledger that is down).
 */
export class PostgresAnswerCache implements AnswerCache {
  /** In-process single flight in front of the database. */
  private readonly local = new Map<string, Promise<unknown>>()

  constructor(
    private readonly pg: Postgres,
    /** This instance's id: the holder of its leases. */
    private readonly holder: string,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  async get<T>(key: string, compute: () => Promise<T>, ttlMs: number): Promise<{ value: T; hit: boolean }> {
    const running = this.local.get(key)
    if (running) return { value: (await running) as T, hit: true }
    const shared = this.shared(key, compute, ttlMs)
    const value = shared.then((r) => r.value)
    this.local.set(key, value)
    value.catch(() => {}).finally(() => this.local.delete(key))
    return shared
  }

  private async shared<T>(key: string, compute: () => Promise<T>, ttlMs: number): Promise<{ value: T; hit: boolean }> {
    for (;;) {
      let state: { body: string | null; leased: boolean }
      try {
        state = await this.claim(key)
      } catch (error) {
        this.logger?.warn('shared answer cache unreachable: computing here', {
          error: String(error instanceof Error ? error.message : error),
        })
        return { value: await compute(), hit: false }
      }
      if (state.body !== null) return { value: JSON.parse(state.body) as T, hit: true }
      if (state.leased) return { value: await this.computeUnderLease(key, compute, ttlMs), hit: false }
      // Another instance is computing it: wait for its answer.
      await Bun.sleep(POLL_MS)
    }
  }

  /**
   * One round trip: the fresh answer if there is one; else the lease, when nobody holds it (or its holder
   * let it expire); else neither (someone else is computing).
   */
  private async claim(key: string): Promise<{ body: string | null; leased: boolean }> {
    const rows = await this.pg.run('answer cache', (sql) =>
      sql.unsafe(
        `WITH fresh AS (SELECT body FROM live_answers WHERE key = $1 AND body IS NOT NULL AND expires_at > ${NOW}),
         leased AS (
           INSERT INTO live_answers AS a (key, holder, lease_until) SELECT $1, $2, ${NOW} + $3 WHERE NOT EXISTS (SELECT 1 FROM fresh)
           ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until, body = NULL
           WHERE a.lease_until < ${NOW} AND (a.body IS NULL OR a.expires_at <= ${NOW})
           RETURNING key)
         SELECT (SELECT body FROM fresh) AS body, EXISTS (SELECT 1 FROM leased) AS leased`,
        [key, this.holder, LEASE_SECONDS],
      ),
    )
    const row = rows[0] as { body: string | null; leased: boolean }
    return { body: row.body, leased: row.leased }
  }

  private async computeUnderLease<T>(key: string, compute: () => Promise<T>, ttlMs: number): Promise<T> {
    let value: T
    try {
      value = await compute()
    } catch (error) {
      // Let the next request try at once instead of waiting out the lease.
      await this.pg
        .run(
          'answer cache',
          (sql) => sql`UPDATE live_answers SET lease_until = 0, holder = NULL WHERE key = ${key} AND holder = ${this.holder}`,
        )
        .catch(() => {})
      throw error
    }
    await this.pg
      .run('answer cache', (sql) =>
        sql.unsafe(
          `UPDATE live_answers SET body = $3, expires_at = ${NOW} + $4, holder = NULL, lease_until = 0 WHERE key = $1 AND holder = $2`,
          [key, this.holder, JSON.stringify(value), ttlMs / 1000],
        ),
      )
      .catch((e: unknown) =>
        this.logger?.warn('live answer not stored in the shared cache', { error: String(e instanceof Error ? e.message : e) }),
      )
    return value
  }

  async delete(key: string): Promise<void> {
    await this.pg.run('answer cache', (sql) => sql`DELETE FROM live_answers WHERE key = ${key}`).catch(() => {})
  }

  /** Drops answers expired for a day (and leases long gone); the reconciler's holder runs it hourly. */
  async purgeExpired(): Promise<number> {
    const rows = await this.pg.run('purge answers', (sql) =>
      sql.unsafe(`DELETE FROM live_answers WHERE expires_at < ${NOW} - 86400 AND lease_until < ${NOW} RETURNING key`),
    )
    return rows.length
  }
}
