/**
 * What `doctor` asks of a ledger before the service takes money, asked here beside the tables it reads
 * (the ledger is reached only through its own modules): a PostgreSQL ledger's writability, schema version
 * and grants; a SQLite file's write lock and its payments.
 */
import { Postgres } from '../postgres'
import { MIGRATIONS } from './postgres-migrations'
import { openLedgerFile } from './sqlite-schema'

export interface PostgresLedgerState {
  readOnly: boolean
  /** The schema version applied (0: none yet) and this release's latest. */
  version: number
  latest: number
  /** Whether this role may create the tables (no schema yet) or write the payments table. */
  mayWrite: boolean
}

export async function postgresLedgerState(url: string): Promise<PostgresLedgerState> {
  const pg = new Postgres(url)
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version
  try {
    const [mode] = await pg.run('doctor', (sql) => sql`SHOW transaction_read_only`)
    if ((mode as { transaction_read_only: string }).transaction_read_only === 'on')
      return { readOnly: true, version: 0, latest, mayWrite: false }
    const [table] = await pg.run('doctor', (sql) => sql`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`)
    const version = (table as { present: boolean }).present
      ? Number(((await pg.run('doctor', (sql) => sql`SELECT coalesce(max(version), 0) AS v FROM schema_migrations`))[0] as { v: number }).v)
      : 0
    // The service creates its tables at start, then writes payments: this role must be allowed both.
    const [grant] = await pg.run('doctor', (sql) =>
      version === 0
        ? sql`SELECT has_schema_privilege(current_schema(), 'CREATE') AS allowed`
        : sql`SELECT has_table_privilege('payments', 'INSERT, UPDATE, DELETE') AS allowed`,
    )
    return { readOnly: false, version, latest, mayWrite: (grant as { allowed: boolean }).allowed }
  } finally {
    await pg.close()
  }
}

/** A SQLite ledger file opened (created when missing), its write lock taken and given back: how many payments it holds. */
export function sqliteLedgerPayments(path: string): number {
  const db = openLedgerFile(path)
  try {
    db.exec('BEGIN IMMEDIATE')
    db.exec('ROLLBACK')
    return (db.query('SELECT count(*) AS n FROM payments').get() as { n: number }).n
  } finally {
    db.close()
  }
}
