import { SESSION_TTL_SECONDS } from '../catalog'
import { newSessionId, type Session, type Sessions } from '../core'

const MAX_SESSIONS = 10_000

/** Wrapper sessions in this process's memory: a restart starts a new session. */
export class SessionStore implements Sessions {
  private readonly sessions = new Map<string, Session>()

  constructor(private readonly now: () => number = Date.now) {}

  async open(id: string | undefined): Promise<{ session: Session; resumed: boolean }> {
    const now = this.now()
    const found = id ? this.sessions.get(id) : undefined
    if (found && found.expiresAt > now) {
      found.expiresAt = now + SESSION_TTL_SECONDS * 1000
      return { session: found, resumed: true }
    }
    if (found) this.sessions.delete(found.id)
    const session = { id: newSessionId(), legs: new Map(), expiresAt: now + SESSION_TTL_SECONDS * 1000 }
    this.sessions.set(session.id, session)
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string)
    return { session, resumed: false }
  }

  async save(): Promise<void> {} // the session object is the store's own
}
