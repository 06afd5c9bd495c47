import { ledgerUnavailable, type Limiter } from '../core'
import type { Postgres } from './client'

/**
 * The per-payer token bucket shared by every instance: one statement refills and takes a token
 * atomically (the row is locked for it), on the database's clock, so N instances enforce one limit of
 * `perMinute` for a payer, not N of them. A payer's next paid request only, never the 402s.
 * now() is when a statement's transaction began, not when it got the row, so concurrent statements
 * may update in another order: the bucket's time only moves forward, or a late one would take
 * refilled time back and refuse a request the limit allows.
 */
export class PostgresRateLimiter implements Limiter {
  private readonly perSecond: number

  constructor(
    private readonly pg: Postgres,
    readonly perMinute: number,
    private readonly scope: string,
  ) {
    this.perSecond = perMinute / 60
  }

  get enabled(): boolean {
    return this.perMinute > 0
  }

  async take(key: string): Promise<number> {
    if (this.perMinute === 0) return 0
    let rows
    try {
      rows = await this.pg.run('rate limit', (sql) =>
        sql.unsafe(
          `WITH t AS (SELECT extract(epoch from now()) AS now)
           INSERT INTO rate_buckets AS b (key, tokens, at, took) SELECT $1, $2 - 1, t.now, true FROM t
           ON CONFLICT (key) DO UPDATE SET
             tokens = LEAST($2, b.tokens + GREATEST(excluded.at - b.at, 0) * $3) - CASE WHEN LEAST($2, b.tokens + GREATEST(excluded.at - b.at, 0) * $3) >= 1 THEN 1 ELSE 0 END,
             took = LEAST($2, b.tokens + GREATEST(excluded.at - b.at, 0) * $3) >= 1,
             at = GREATEST(b.at, excluded.at)
           RETURNING took, tokens`,
          [`${this.scope}:${key}`, this.perMinute, this.perSecond],
        ),
      )
    } catch (error) {
      throw ledgerUnavailable(error)
    }
    const row = rows[0] as { took: boolean; tokens: number }
    return row.took ? 0 : Math.max(1, Math.ceil((1 - row.tokens) / this.perSecond))
  }

  /** Forgets buckets that have refilled: they behave exactly like new ones. */
  async sweep(): Promise<void> {
    await this.pg.run('rate limit sweep', (sql) =>
      sql.unsafe(`DELETE FROM rate_buckets WHERE key LIKE $1 AND tokens + (extract(epoch from now()) - at) * $2 >= $3`, [
        `${this.scope}:%`,
        this.perSecond,
        this.perMinute,
      ]),
    )
  }
}
