import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { checkDestination, discard, publish, tempPathFor } from './output-file'

export interface BackupResult {
  path: string
  bytes: number
  /** Rows per table of the copy, and payments per state. */
  rows: { payments: number; payment_events: number; artifacts: number }
  states: Record<string, number>
}

export class BackupError extends Error {}

/**
 * A consistent online copy of the ledger with `VACUUM INTO`: SQLite writes, page by page, a new database
 * file from one read transaction of the source, so the copy holds exactly the transactions committed
 * before it began, and in WAL mode the service keeps writing meanwhile. (`bun:sqlite` has no binding for
 * the backup API; `db.serialize()` would hold the whole file, artifacts included, in memory.) The source is
 * opened read-only. SQLite does not fsync a VACUUM INTO file and a crash can leave it incomplete, so it
 * is written under a temporary name, checked with `PRAGMA integrity_check`, flushed, and only then renamed.
 */
export function backupLedger(source: string, dest: string, options: { force: boolean }): BackupResult {
  checkDestination(dest, options.force, source)
  const tmp = tempPathFor(dest)
  try {
    const db = new Database(source, { readonly: true })
    try {
      db.run('VACUUM INTO ?', [tmp])
    } finally {
      db.close()
    }
    const copy = new Database(tmp, { readonly: true })
    let result: BackupResult
    try {
      const problems = copy
        .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
        .all()
        .map((r) => r.integrity_check)
      if (problems.join() !== 'ok') throw new BackupError(`the copy failed PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}`)
      const count = (table: string) => copy.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n
      const tables = new Set(
        copy
          .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
          .all()
          .map((t) => t.name),
      )
      if (!tables.has('payments')) throw new BackupError(`${source} has no payments table: not a payment ledger.`)
      result = {
        path: dest,
        bytes: statSync(tmp).size,
        rows: {
          payments: count('payments'),
          payment_events: tables.has('payment_events') ? count('payment_events') : 0,
          artifacts: tables.has('artifacts') ? count('artifacts') : 0,
        },
        states: Object.fromEntries(
          copy
            .query<{ state: string; n: number }, []>('SELECT state, COUNT(*) AS n FROM payments GROUP BY state ORDER BY state')
            .all()
            .map((s) => [s.state, s.n]),
        ),
      }
    } finally {
      copy.close()
    }
    publish(tmp, dest)
    return result
  } catch (error) {
    discard(tmp)
    throw error
  }
}
