/** The SQLite ledger's file: opened and upgraded from the declared tables (tables.ts), and its statements (sqlite.ts). */
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { PaymentRow, PaymentState, Settlement } from './contract'
import {
  type Column,
  columnsIn,
  createIndex,
  indexesIn,
  LEDGER_INDEXES,
  LEDGER_TABLES,
  PAYMENT_ID_HELD,
  sqliteColumn,
  sqliteTables,
} from './tables'

/** SQLite's own machinery beside the ledger's tables: the one row /ready rewrites to see that the file takes writes. */
const PROBE_TABLE = `CREATE TABLE IF NOT EXISTS ledger_probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);`

/** Made at start-up when LEDGER_KEEP_SERVED_DAYS is set (sqlite.ts), else by the first pass that drops served payments (tables.ts). */
export const SERVED_INDEX = createIndex(LEDGER_INDEXES.find((index) => index.name === 'payments_served_at')!)
/** Payments dropped per retention transaction: the event loop gets a turn between them. */
export const PRUNE_CHUNK = 500

/** An old payment the retention pass drops. */
export interface PruneRow {
  key: string
  created_at: number
  updated_at: number
  artifact_id: string | null
}

/** Columns of a table, to add the ones a ledger file made by an older release lacks. */
const columnsOf = (db: Database, table: string) =>
  new Set(
    db
      .query<{ name: string }, []>(`PRAGMA table_info(${table})`)
      .all()
      .map((c) => c.name),
  )

/**
 * A column an older file lacks is added as declared. SQLite can add only a column that may be NULL or has
 * a default, and no key: a declaration that breaks this is refused by name (on a table with rows SQLite
 * would refuse it anyway, and the ledger would not open), and the change needs a rebuild of the table.
 */
function addColumn(db: Database, table: string, column: Column): void {
  if ((column.required && column.fallback === undefined) || column.key || column.unique)
    throw new Error(
      `ledger ${table}.${column.name}: a file made by an older release lacks this column, and SQLite can add only a column that may be NULL or has a default, and is no key`,
    )
  db.exec(`ALTER TABLE ${table} ADD COLUMN ${sqliteColumn(column)}`)
}

/**
 * Opens (or creates) the ledger file and brings its tables to the declaration (tables.ts): a file made
 * by an older release gets the columns and indexes added since. Only additions: a changed type,
 * nullability or index definition is not applied to an existing file.
 */
export function openLedgerFile(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  // WAL + NORMAL: a commit survives a process crash without an fsync per commit. The timeout first:
  // instances opening one new file at once wait instead of failing.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
  db.exec(sqliteTables())
  db.exec(PROBE_TABLE)
  // Under the write lock, columns read inside it: instances opening one old file at once add each column once.
  db.transaction(() => {
    for (const table of LEDGER_TABLES) {
      const present = columnsOf(db, table.name)
      for (const column of columnsIn(table, 'sqlite')) if (!present.has(column.name)) addColumn(db, table.name, column)
    }
  }).immediate()
  for (const index of indexesIn('sqlite')) if (!index.lazy) db.exec(createIndex(index))
  return db
}

/** The ledger's prepared statements. */
export function ledgerStatements(db: Database) {
  return {
    upsert: db.query(
      `INSERT INTO payments (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at, settlement, tx_hash, valid_before, payment_id, payload_digest)
       VALUES ($key, $network, $payer, $nonce, $route, $fingerprint, $amount, $requestId, $state, $artifactId, $createdAt, $updatedAt, $settlement, $txHash, $validBefore, $paymentId, $payloadDigest)
       ON CONFLICT(key) DO UPDATE SET route = excluded.route, fingerprint = excluded.fingerprint, amount_atomic = excluded.amount_atomic,
         request_id = excluded.request_id, state = excluded.state, artifact_id = excluded.artifact_id, updated_at = excluded.updated_at,
         settlement = excluded.settlement, tx_hash = excluded.tx_hash, valid_before = excluded.valid_before,
         payment_id = excluded.payment_id, payload_digest = excluded.payload_digest`,
    ),
    // The payments a payer's id names, not failed (at most one, unless another process has not committed a failure yet).
    boundTo: db.query<{ key: string }, { payer: string; paymentId: string }>(
      `SELECT key FROM payments WHERE payer = $payer AND payment_id = $paymentId AND ${PAYMENT_ID_HELD}`,
    ),
    holder: db.query<PaymentRow<number>, { key: string }>('SELECT * FROM payments WHERE key = $key'),
    open: db.query<PaymentRow<number>, []>(`SELECT * FROM payments WHERE state IN ('pending', 'in_progress')`),
    event: db.query(
      `INSERT INTO payment_events (at, event, payment_key, request_id, route, payer, amount_atomic, nonce, network, tx_hash, detail)
       VALUES ($at, $event, $payment_key, $request_id, $route, $payer, $amount_atomic, $nonce, $network, $tx_hash, $detail)`,
    ),
    // An Arrow answer's bytes are stored as a BLOB (the column's TEXT affinity leaves BLOBs as they are).
    store: db.query(
      `INSERT INTO artifacts (id, payment_key, body, headers, created_at, expires_at, payer, fingerprint)
       VALUES ($id, $key, $body, $headers, $now, $expiresAt, $payer, $fingerprint)`,
    ),
    bought: db.query<
      { id: string; body: string | Uint8Array; headers: string | null; expires_at: number },
      { payer: string; fingerprint: string; now: number }
    >(
      `SELECT a.id, a.body, a.headers, a.expires_at FROM artifacts a JOIN payments p ON p.key = a.payment_key
       WHERE a.payer = $payer AND a.fingerprint = $fingerprint AND a.expires_at > $now AND p.state = 'served' AND p.artifact_id = a.id
       ORDER BY a.expires_at DESC LIMIT 1`,
    ),
    useNonce: db.query('INSERT INTO sign_in_nonces (nonce, expires_at) VALUES ($nonce, $expiresAt) ON CONFLICT (nonce) DO NOTHING'),
    purgeNonces: db.query('DELETE FROM sign_in_nonces WHERE expires_at <= $now'),
    artifact: db.query<{ id: string; body: string | Uint8Array; headers: string | null; expires_at: number }, { id: string; now: number }>(
      `SELECT a.id, a.body, a.headers, a.expires_at FROM artifacts a JOIN payments p ON p.key = a.payment_key
       WHERE a.id = $id AND a.expires_at > $now AND p.state = 'served'`,
    ),
    purge: db.query('DELETE FROM artifacts WHERE expires_at <= $now'),
    // Retention (purgeExpired), a chunk of old payments at a time, oldest first. The state is written out
    // so that SQLite uses its partial index; the keys travel as one JSON array. Every event is written with
    // the state change it records, so a payment's events lie between its created_at and updated_at: they
    // are found through the events' `at` index over that span (a second either side for the clock's tick).
    oldFailed: db.query<PruneRow, { before: number }>(
      `SELECT key, created_at, updated_at, artifact_id FROM payments WHERE state = 'failed' AND updated_at < $before ORDER BY updated_at LIMIT ${PRUNE_CHUNK}`,
    ),
    oldServed: db.query<PruneRow, { before: number }>(
      `SELECT key, created_at, updated_at, artifact_id FROM payments WHERE state = 'served' AND updated_at < $before ORDER BY updated_at LIMIT ${PRUNE_CHUNK}`,
    ),
    pruneEvents: db.query(
      'DELETE FROM payment_events WHERE at BETWEEN $from - 1 AND $to + 1 AND payment_key IN (SELECT value FROM json_each($keys))',
    ),
    // By their ids (the primary key): most are gone already, dropped when they expired (ARTIFACT_TTL_HOURS).
    pruneArtifacts: db.query('DELETE FROM artifacts WHERE id IN (SELECT value FROM json_each($ids))'),
    prunePayments: db.query('DELETE FROM payments WHERE key IN (SELECT value FROM json_each($keys))'),
    pruneSpend: db.query(
      `DELETE FROM provider_spend WHERE seq IN (SELECT seq FROM provider_spend WHERE at < $before LIMIT ${PRUNE_CHUNK * 4})`,
    ),
    /** /ready, after a failed commit: does the file take a write now? (One row, rewritten.) */
    probe: db.query('INSERT INTO ledger_probe (id, at) VALUES (1, $now) ON CONFLICT(id) DO UPDATE SET at = excluded.at'),
    spend: db.query(
      `INSERT INTO provider_spend (at, request_id, route, provider, role, requests, input_tokens, output_tokens, cost_nano_usd)
       VALUES ($at, $request_id, $route, $provider, $role, $requests, $input_tokens, $output_tokens, $cost_nano_usd)`,
    ),
  }
}

export type LedgerStatements = ReturnType<typeof ledgerStatements>
