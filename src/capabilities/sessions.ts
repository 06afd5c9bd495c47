import { randomBytes } from 'node:crypto'
import { SESSION_LIFETIME_MINUTES } from '../catalog/capabilities'

/** How long a wrapper session keeps the evidence it gathered, from its last use (documented in the catalog). */
export const SESSION_TTL_SECONDS = SESSION_LIFETIME_MINUTES * 60
const MAX_SESSIONS = 10_000

export const newSessionId = () => `ses_${randomBytes(12).toString('hex')}`

export interface Session {
  id: string
  /** Leg results by `<route id>|<request key>`: what a follow-up call can reuse instead of computing again. */
  legs: Map<string, unknown>
  expiresAt: number
}

/**
 * Where wrapper sessions live: a client passes `session` back and the legs it already bought are reused
 * (and reported as `reused`). In memory for one instance; in PostgreSQL (src/postgres/sessions.ts) when
 * instances share a ledger, so a session continues on whichever instance the next call reaches.
 */
export interface Sessions {
  /** The live session with this id, or a new one; `resumed` says which. Each use extends the lifetime. */
  open(id: string | undefined): Promise<{ session: Session; resumed: boolean }>
  /** Keeps the legs added to the session since `open`. */
  save(session: Session): Promise<void>
}

/** Wrapper sessions in this process's memory: a restart starts a new session. */
export class SessionStore implements Sessions {
  private readonly sessions = new Map<string, Session>()

  constructor(private readonly now: () => number = Date.now) {}

  async open(id: string | undefined): Promise<{ session: Session; resumed: boolean }> {
    const t = this.now()
    const found = id ? this.sessions.get(id) : undefined
    if (found && found.expiresAt > t) {
      found.expiresAt = t + SESSION_TTL_SECONDS * 1000
      return { session: found, resumed: true }
    }
    if (found) this.sessions.delete(found.id)
    const session = { id: newSessionId(), legs: new Map(), expiresAt: t + SESSION_TTL_SECONDS * 1000 }
    this.sessions.set(session.id, session)
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string)
    return { session, resumed: false }
  }

  async save(): Promise<void> {} // the session object is the store's own
}
