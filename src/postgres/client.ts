import { SQL } from 'bun'
import { LedgerUnavailable } from '../core'

/**
 * How long one ledger statement or commit may take before the request waiting on it is refused. Bun's
 * SQL client has no statement timeout of its own, and a database that stopped answering (frozen host,
 * full network buffer) would otherwise hold every paid request. A statement cut off may still commit
 * later, so every write is guarded to be harmless when it lands twice or late.
 */
export const STATEMENT_DEADLINE_MS = 3000

/** The connection pool of one instance. Several instances each hold their own. */
const POOL_SIZE = 10

/** The ledger's schema is newer than this release (ledger/postgres-migrations.ts): `run` passes it on as it is, not as an unreachable ledger. */
export class SchemaTooNew extends Error {}

/**
 * PostgreSQL as the shared ledger: a connection pool, every call under a deadline, and the last
 * outcome kept for /ready. Any failure (refused, reset, timed out, server error) is `LedgerUnavailable`:
 * the statements are ours and correct, so an error means the database cannot do its part now. Bun's
 * pool reconnects by itself once the server is back.
 */
export class Postgres {
  readonly sql: SQL
  private lastError: { message: string; at: number } | null = null

  /** `connections`: the pool's size (the ledger's; the console reads on one of its own). */
  constructor(
    readonly url: string,
    connections = POOL_SIZE,
  ) {
    // Never `new SQL(undefined)`: that silently connects to localhost:5432.
    this.sql = new SQL(url, { max: connections, idleTimeout: 30, connectionTimeout: STATEMENT_DEADLINE_MS / 1000 })
  }

  /** Runs `work` on the pool with the deadline; the error of an unreachable database is LedgerUnavailable. */
  async run<T>(what: string, work: (sql: SQL) => Promise<T>, deadlineMs = STATEMENT_DEADLINE_MS): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LedgerUnavailable(`${what}: no answer from PostgreSQL in ${deadlineMs} ms`)), deadlineMs)
    })
    try {
      const result = await Promise.race([work(this.sql), deadline])
      this.lastError = null
      return result
    } catch (cause) {
      if (cause instanceof SchemaTooNew) throw cause
      const error = cause instanceof LedgerUnavailable ? cause : new LedgerUnavailable(`${what}: ${describe(cause)}`)
      this.lastError = { message: error.message, at: Date.now() }
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /** `ok`, or why the last call failed (until one succeeds again). */
  status(): 'ok' | string {
    return this.lastError ? `unreachable: ${this.lastError.message}` : 'ok'
  }

  async close(): Promise<void> {
    await this.sql.close({ timeout: 2 }).catch(() => {})
  }
}

/** The driver's code and message, without the URL (it may carry a password). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: string; errno?: string }).errno ?? (error as { code?: string }).code
  return `${code ? `${code} ` : ''}${error.message}`.replace(/postgres(ql)?:\/\/[^\s]*/g, 'postgres://…').slice(0, 300)
}

/** A URL fit for logs and /ready: the password replaced, wherever it is (the user part, or `?password=` as libpq also reads it). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    // Every query value: libpq reads password, sslpassword, sslkey and more from there; none is needed to tell ledgers apart.
    for (const name of [...parsed.searchParams.keys()]) parsed.searchParams.set(name, '***')
    return parsed.toString()
  } catch {
    return 'postgres://…'
  }
}
