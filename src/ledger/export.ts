import { Database } from 'bun:sqlite'
import { Postgres } from '../postgres'
import type { PaymentRow, PaymentState } from './contract'
import { isoUtc } from './revenue-report'
import { atomicToUsd } from '../core'
import { csvRecord } from '../formats'

/** `payments export --csv`: one row per payment of the ledger, for accounting. */
export const CSV_COLUMNS = [
  'created_at',
  'updated_at',
  'status',
  'settlement',
  'route',
  'request_id',
  'payer',
  'amount_usd',
  'amount_atomic',
  'network',
  'asset',
  'tx_hash',
  'nonce',
  'payment_key',
  'artifact_id',
  'valid_before_unix',
  'fingerprint',
] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

export const STATES: readonly PaymentState[] = ['served', 'pending', 'failed', 'in_progress']

export interface ExportOptions {
  /** Unix seconds; a payment is in the range when from <= created_at < to. */
  from?: number
  to?: number
  /** Only these ledger states (default all). */
  states?: readonly PaymentState[]
}

/** The token contract from the key `<caip2>:<asset>:<payer>:<nonce>` (the ledger keeps it nowhere else). */
function assetOf(row: PaymentRow): string | null {
  const prefix = `${row.network.toLowerCase()}:`
  return row.key.startsWith(prefix) ? (row.key.slice(prefix.length).split(':')[0] ?? null) : null
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or CR first) is written with a
 * leading apostrophe, which spreadsheets show as text (OWASP's CSV injection advice). Nothing a buyer
 * sends reaches this file today (request ids start with a letter or digit, routes come from the catalog);
 * a ledger edited by hand, or a later field, must not turn the accountant's spreadsheet into a program.
 */
export const spreadsheetSafe = (value: string | null): string | null => (value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value)

export function csvValues(row: PaymentRow): Record<CsvColumn, string | null> {
  const values = rawValues(row)
  for (const column of CSV_COLUMNS) values[column] = spreadsheetSafe(values[column])
  return values
}

function rawValues(row: PaymentRow): Record<CsvColumn, string | null> {
  return {
    created_at: isoUtc(Number(row.created_at)),
    updated_at: isoUtc(Number(row.updated_at)),
    status: row.state,
    settlement: row.settlement,
    route: row.route,
    request_id: row.request_id,
    payer: row.payer,
    amount_usd: atomicToUsd(BigInt(row.amount_atomic)),
    amount_atomic: BigInt(row.amount_atomic).toString(),
    network: row.network,
    asset: assetOf(row),
    tx_hash: row.tx_hash,
    nonce: row.nonce,
    payment_key: row.key,
    artifact_id: row.artifact_id,
    valid_before_unix: row.valid_before,
    fingerprint: row.fingerprint,
  }
}

/** The header, then one record per payment, handed to `write` in chunks of about CHUNK characters. */
function csvSink(write: (chunk: string) => void | Promise<void>) {
  let buffer = csvRecord(CSV_COLUMNS)
  let rows = 0
  return {
    async add(row: PaymentRow): Promise<void> {
      const values = csvValues(row)
      buffer += csvRecord(CSV_COLUMNS.map((c) => values[c]))
      rows++
      if (buffer.length >= CHUNK) {
        await write(buffer)
        buffer = ''
      }
    },
    async end(): Promise<{ rows: number }> {
      if (buffer) await write(buffer)
      return { rows }
    },
  }
}

/** Rows read from PostgreSQL per page (keyset pagination: bounded memory however large the ledger). */
const PAGE_ROWS = 2000

/**
 * The same export from the PostgreSQL ledger (LEDGER_URL): pages of rows in (created_at, key) order inside
 * one read-only REPEATABLE READ transaction, so the file is one consistent snapshot while instances write.
 */
export async function exportCsvPostgres(
  url: string,
  options: ExportOptions,
  write: (chunk: string) => void | Promise<void>,
): Promise<{ rows: number }> {
  const pg = new Postgres(url)
  try {
    // Not under the ledger's per-statement deadline: a large export may take minutes, and nothing waits on it.
    return await pg.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const where: string[] = []
      const params: unknown[] = []
      const param = (v: unknown) => (params.push(v), `$${params.length}`)
      if (options.from !== undefined) where.push(`created_at >= ${param(options.from)}`)
      if (options.to !== undefined) where.push(`created_at < ${param(options.to)}`)
      if (options.states?.length) where.push(`state = ANY(${param(`{${options.states.join(',')}}`)}::text[])`)
      const settlement = "CASE WHEN state = 'served' THEN COALESCE(settlement, 'local') ELSE settlement END AS settlement"
      const out = csvSink(write)
      let after: [string, string] | null = null
      for (;;) {
        const page = [...params]
        const conditions = [...where]
        if (after) {
          page.push(after[0], after[1])
          conditions.push(`(created_at, key) > ($${page.length - 1}::bigint, $${page.length})`)
        }
        const batch = (await tx.unsafe(
          `SELECT key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at, ${settlement}, tx_hash, valid_before
           FROM payments ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY created_at, key LIMIT ${PAGE_ROWS}`,
          page,
        )) as PaymentRow[]
        for (const r of batch) await out.add(r)
        if (batch.length < PAGE_ROWS) break
        const last = batch[batch.length - 1]!
        after = [String(last.created_at), last.key]
      }
      return out.end()
    })
  } finally {
    await pg.close()
  }
}

/** Chunks of about this many characters are handed to the writer: few writes, bounded memory. */
const CHUNK = 64 * 1024

/**
 * Writes the header and one CSV record per payment, oldest first, to `write` in chunks. Rows come from a
 * statement iterator (one row in memory at a time, however large the ledger) inside the statement's own
 * read transaction: a consistent snapshot even while the service keeps writing. Read-only connection.
 */
export async function exportCsv(
  path: string,
  options: ExportOptions,
  write: (chunk: string) => void | Promise<void>,
): Promise<{ rows: number }> {
  const db = new Database(path, { readonly: true, strict: true })
  try {
    const have = new Set(
      db
        .query<{ name: string }, []>('PRAGMA table_info(payments)')
        .all()
        .map((c) => c.name),
    )
    // Columns added after the first release are NULL in a ledger that no newer service has opened yet.
    const col = (name: string) => (have.has(name) ? name : `NULL AS ${name}`)
    const where: string[] = []
    const params: Record<string, number | string> = {}
    if (options.from !== undefined) where.push('created_at >= $from'), (params.from = options.from)
    if (options.to !== undefined) where.push('created_at < $to'), (params.to = options.to)
    if (options.states?.length) {
      where.push(`state IN (${options.states.map((_, i) => `$s${i}`).join(', ')})`)
      options.states.forEach((s, i) => (params[`s${i}`] = s))
    }
    // A served row of a ledger from before settlements were recorded was verified offline: `local`,
    // as `payments report` counts it, so the export's sums and the report's agree.
    const settlement = have.has('settlement')
      ? "CASE WHEN state = 'served' THEN COALESCE(settlement, 'local') ELSE settlement END AS settlement"
      : "CASE WHEN state = 'served' THEN 'local' END AS settlement"
    const stmt = db.query<PaymentRow, Record<string, number | string>>(
      `SELECT key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at,
         ${settlement}, ${col('tx_hash')}, ${col('valid_before')}
       FROM payments ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, key`,
    )
    const out = csvSink(write)
    for (const r of stmt.iterate(params)) await out.add(r)
    return out.end()
  } finally {
    db.close()
  }
}
