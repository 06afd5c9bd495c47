/** The SQLite ledger's file: tables, migrations and statements (sqlite.ts); PostgreSQL's are in src/postgres/migrations.ts. */
import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { PaymentRow, PaymentState, Settlement } from './contract'

// payments is WITHOUT ROWID: one B-tree keyed by the nonce instead of a table plus its key index.
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS payments (
  key TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  payer TEXT NOT NULL,
  nonce TEXT NOT NULL,
  route TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  amount_atomic TEXT NOT NULL,
  request_id TEXT NOT NULL,
  state TEXT NOT NULL,
  artifact_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  settlement TEXT,
  tx_hash TEXT,
  valid_before TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS payment_events (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  event TEXT NOT NULL,
  payment_key TEXT NOT NULL,
  request_id TEXT NOT NULL,
  route TEXT NOT NULL,
  payer TEXT NOT NULL,
  amount_atomic TEXT NOT NULL,
  nonce TEXT NOT NULL,
  network TEXT NOT NULL,
  tx_hash TEXT,
  detail TEXT
);
CREATE INDEX IF NOT EXISTS payment_events_at ON payment_events(at);
CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY,
  payment_key TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS artifacts_expiry ON artifacts(expires_at);
CREATE TABLE IF NOT EXISTS provider_spend (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  route TEXT NOT NULL,
  provider TEXT NOT NULL,
  role TEXT NOT NULL,
  requests INTEGER NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cost_nano_usd TEXT
);
CREATE INDEX IF NOT EXISTS provider_spend_at ON provider_spend(at);
CREATE TABLE IF NOT EXISTS ledger_probe (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  at INTEGER NOT NULL
);
`

/** Columns added after the first release; a ledger file from before gets them on open. */
export const ADDED_COLUMNS = ['settlement TEXT', 'tx_hash TEXT', 'valid_before TEXT']
/** Columns added to artifacts after the first release (answers in CSV and Arrow carry their headers). */
export const ADDED_ARTIFACT_COLUMNS = ['headers TEXT']
export const PENDING_INDEX = `CREATE INDEX IF NOT EXISTS payments_open ON payments(state) WHERE state IN ('pending', 'in_progress')`
/**
 * The retention pass finds old failed payments through this (a handful of rows: failures are rare);
 * without it each hourly pass scanned the whole ledger on the event loop (~320 ms at a million payments).
 */
export const FAILED_INDEX = `CREATE INDEX IF NOT EXISTS payments_failed_at ON payments(updated_at) WHERE state = 'failed'`
/**
 * Made by the first pass that drops served payments (LEDGER_KEEP_SERVED_DAYS): ~100 bytes a payment,
 * paid only by ledgers that are pruned.
 */
export const SERVED_INDEX = `CREATE INDEX IF NOT EXISTS payments_served_at ON payments(updated_at) WHERE state = 'served'`
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

/** Opens (or creates) the ledger file and brings its schema up to date. */
export function openLedgerFile(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  // WAL + NORMAL: a commit survives a process crash without an fsync per commit. The timeout first:
  // instances opening one new file at once wait instead of failing.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
  db.exec(SCHEMA)
  const columns = columnsOf(db, 'payments')
  for (const column of ADDED_COLUMNS) if (!columns.has(column.split(' ')[0]!)) db.exec(`ALTER TABLE payments ADD COLUMN ${column}`)
  const artifactColumns = columnsOf(db, 'artifacts')
  for (const column of ADDED_ARTIFACT_COLUMNS)
    if (!artifactColumns.has(column.split(' ')[0]!)) db.exec(`ALTER TABLE artifacts ADD COLUMN ${column}`)
  db.exec(PENDING_INDEX)
  db.exec(FAILED_INDEX)
  return db
}

/** The ledger's prepared statements. */
export function ledgerStatements(db: Database) {
  return {
    upsert: db.query(
      `INSERT INTO payments (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at, settlement, tx_hash, valid_before)
       VALUES ($key, $network, $payer, $nonce, $route, $fingerprint, $amount, $requestId, $state, $artifactId, $createdAt, $updatedAt, $settlement, $txHash, $validBefore)
       ON CONFLICT(key) DO UPDATE SET route = excluded.route, fingerprint = excluded.fingerprint, amount_atomic = excluded.amount_atomic,
         request_id = excluded.request_id, state = excluded.state, artifact_id = excluded.artifact_id, updated_at = excluded.updated_at,
         settlement = excluded.settlement, tx_hash = excluded.tx_hash, valid_before = excluded.valid_before`,
    ),
    holder: db.query<PaymentRow<number>, { key: string }>('SELECT * FROM payments WHERE key = $key'),
    open: db.query<PaymentRow<number>, []>(`SELECT * FROM payments WHERE state IN ('pending', 'in_progress')`),
    event: db.query(
      `INSERT INTO payment_events (at, event, payment_key, request_id, route, payer, amount_atomic, nonce, network, tx_hash, detail)
       VALUES ($at, $event, $key, $requestId, $route, $payer, $amount, $nonce, $network, $txHash, $detail)`,
    ),
    // An Arrow answer's bytes are stored as a BLOB (the column's TEXT affinity leaves BLOBs as they are).
    store: db.query(
      'INSERT INTO artifacts (id, payment_key, body, headers, created_at, expires_at) VALUES ($id, $key, $body, $headers, $now, $expiresAt)',
    ),
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
       VALUES ($at, $requestId, $route, $provider, $role, $requests, $input, $output, $cost)`,
    ),
  }
}

export type LedgerStatements = ReturnType<typeof ledgerStatements>
