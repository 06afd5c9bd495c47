import { ledgerUnavailable, type Logger, newSessionId, type Session, type Sessions } from '../core'
import { SESSION_TTL_SECONDS } from '../catalog'
import type { Postgres } from './client'

/**
 * Wrapper sessions in the shared ledger: a session made on one instance continues on any other. A leg
 * is stored as JSON text once (the first instance to store it wins; a leg of one request is the same
 * on every instance). Opening a session that cannot be read refuses the paid request before anything is
 * charged; a leg that cannot be stored only costs the next call a recomputation.
 */
export class PostgresSessions implements Sessions {
  /** The legs each open session was loaded with: `save` writes only the others. */
  private readonly loaded = new WeakMap<Session, Set<string>>()

  constructor(
    private readonly pg: Postgres,
    private readonly logger?: Pick<Logger, 'warn'>,
    private readonly now: () => number = Date.now,
  ) {}

  async open(id: string | undefined): Promise<{ session: Session; resumed: boolean }> {
    const now = this.now()
    const expiresAt = now + SESSION_TTL_SECONDS * 1000
    try {
      return await this.pg.run('session', async (sql) => {
        if (id) {
          const live = await sql`UPDATE sessions SET expires_at = ${expiresAt} WHERE id = ${id} AND expires_at > ${now} RETURNING id`
          if (live.length > 0) {
            const legs = await sql<{ leg: string; data: string }[]>`SELECT leg, data FROM session_legs WHERE session_id = ${id}`
            const session: Session = { id, legs: new Map(legs.map((l) => [l.leg, JSON.parse(l.data)])), expiresAt }
            this.loaded.set(session, new Set(session.legs.keys()))
            return { session, resumed: true }
          }
        }
        const session: Session = { id: newSessionId(), legs: new Map(), expiresAt }
        await sql`INSERT INTO sessions (id, expires_at) VALUES (${session.id}, ${expiresAt})`
        this.loaded.set(session, new Set())
        return { session, resumed: false }
      })
    } catch (error) {
      throw ledgerUnavailable(error)
    }
  }

  async save(session: Session): Promise<void> {
    const known = this.loaded.get(session) ?? new Set()
    const rows = [...session.legs]
      .filter(([leg]) => !known.has(leg))
      .map(([leg, data]) => ({ session_id: session.id, leg, data: JSON.stringify(data) }))
    if (rows.length === 0) return
    await this.pg
      .run('session legs', (sql) => sql`INSERT INTO session_legs ${sql(rows)} ON CONFLICT (session_id, leg) DO NOTHING`)
      .then(() => rows.forEach((r) => known.add(r.leg)))
      .catch((e: unknown) =>
        this.logger?.warn('session legs not stored: the next call recomputes them', { session: session.id, error: String(e) }),
      )
  }

  /** Drops sessions past their lifetime (their legs go with them). */
  async purgeExpired(): Promise<number> {
    const rows = await this.pg.run('purge sessions', (sql) => sql`DELETE FROM sessions WHERE expires_at <= ${this.now()} RETURNING id`)
    return rows.length
  }
}
