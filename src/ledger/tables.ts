/**
 * The ledger's tables, declared once for both engines. SQLite's file is made from this and an older
 * file gains the columns and indexes added since (sqlite-schema.ts: additions only); PostgreSQL's
 * numbered migrations (postgres-migrations.ts, beside this file) are its released history and must arrive at it:
 * test/ledger/postgres.test.ts reads a migrated database back against this declaration, and
 * test/ledger/sqlite.test.ts a new and an upgraded file. A change to a table is made here, plus a
 * migration for PostgreSQL. Each engine's own machinery (SQLite's write probe,
 * PostgreSQL's sessions, limits and leases) stays with the engine.
 */

/** What a column holds; each engine stores it its own way (TYPES). */
type ColumnKind = 'text' | 'count' | 'time' | 'millis' | 'revision' | 'nano_usd' | 'body' | 'sequence' | 'flag'

export type Engine = 'sqlite' | 'postgres'

/**
 * Times are unix seconds (`millis`: milliseconds, as x402's batch-settlement channels keep them; a
 * `revision` counts the writes of a row, past a 32-bit integer). An answer's body is TEXT in SQLite (its
 * TEXT affinity keeps an Arrow answer's BLOB as it is) and bytes in PostgreSQL (with `is_text` beside it).
 * nano-USD are decimal text in SQLite.
 */
const TYPES: Record<Engine, Record<ColumnKind, string>> = {
  sqlite: {
    text: 'TEXT',
    count: 'INTEGER',
    time: 'INTEGER',
    millis: 'INTEGER',
    revision: 'INTEGER',
    nano_usd: 'TEXT',
    body: 'TEXT',
    sequence: 'INTEGER',
    flag: 'INTEGER',
  },
  postgres: {
    text: 'text',
    count: 'integer',
    time: 'bigint',
    millis: 'bigint',
    revision: 'bigint',
    nano_usd: 'numeric',
    body: 'bytea',
    sequence: 'bigint',
    flag: 'boolean',
  },
}

export interface Column {
  name: string
  kind: ColumnKind
  /** NOT NULL. */
  required?: true
  key?: true
  /** A second key, unique (PostgreSQL's ids that make a retried commit idempotent). */
  unique?: true
  /** Kept by one engine only. */
  only?: Engine
  /** SQL default (a NOT NULL column added to an existing table needs one). */
  fallback?: string
}

export interface Index {
  name: string
  /** `table (columns)`. */
  on: string
  where?: string
  only?: Engine
  /** UNIQUE (PostgreSQL: what decides between instances). */
  unique?: true
  /** Not made when the ledger is opened: only by a ledger that uses it (SQLite: when served payments are pruned). */
  lazy?: true
}

export interface Table {
  name: string
  columns: readonly Column[]
  /** SQLite: one B-tree keyed by the primary key, with no rowid table beside it. */
  withoutRowid?: true
}

// Literal types kept (const parameters), so that contract.ts can check PaymentRow against PAYMENTS.
const text = <const Name extends string, const More extends Partial<Column> = {}>(name: Name, more?: More) =>
  ({ name, kind: 'text', ...more }) as { name: Name; kind: 'text' } & More
const required = { required: true } as const

/** The names of a table's columns that both engines keep. */
export type SharedColumn<Of extends Table> = Exclude<Of['columns'][number], { only: Engine }>['name']

export const PAYMENTS = {
  name: 'payments',
  withoutRowid: true,
  columns: [
    text('key', { key: true }),
    text('network', required),
    text('payer', required),
    text('nonce', required),
    text('route', required),
    text('fingerprint', required),
    text('amount_atomic', required),
    text('request_id', required),
    text('state', required),
    text('artifact_id'),
    { name: 'created_at', kind: 'time', required: true },
    { name: 'updated_at', kind: 'time', required: true },
    text('settlement'),
    text('tx_hash'),
    text('valid_before'),
    // PostgreSQL's claims between instances: who holds one, and whether it was taken over from a dead one.
    text('holder', { only: 'postgres' }),
    text('claim_id', { only: 'postgres' }),
    { name: 'taken_over', kind: 'flag', required: true, only: 'postgres', fallback: 'false' },
    // x402's payment-identifier: the buyer's idempotency key, and a digest of the payload it names (PostgreSQL: migration 5).
    text('payment_id'),
    text('payload_digest'),
  ],
} as const satisfies Table

export const PAYMENT_EVENTS = {
  name: 'payment_events',
  columns: [
    { name: 'seq', kind: 'sequence', key: true },
    text('id', { required: true, unique: true, only: 'postgres' }),
    { name: 'at', kind: 'time', required: true },
    text('event', required),
    text('payment_key', required),
    text('request_id', required),
    text('route', required),
    text('payer', required),
    text('amount_atomic', required),
    text('nonce', required),
    text('network', required),
    text('tx_hash'),
    text('detail'),
  ],
} as const satisfies Table

export const ARTIFACTS = {
  name: 'artifacts',
  columns: [
    text('id', { key: true }),
    text('payment_key', required),
    { name: 'body', kind: 'body', required: true },
    { name: 'is_text', kind: 'flag', required: true, only: 'postgres' },
    // Answers in CSV and Arrow carry their headers (added after the first release).
    text('headers'),
    { name: 'created_at', kind: 'time', required: true },
    { name: 'expires_at', kind: 'time', required: true },
    // Who bought the answer (lower case) and for which request: a wallet that signs in (x402's
    // sign-in-with-x) gets it again while it is kept (PostgreSQL: migration 6).
    text('payer'),
    text('fingerprint'),
  ],
} as const satisfies Table

/** The nonces of sign-in challenges already used (single use), each kept until its challenge expires. */
export const SIGN_IN_NONCES = {
  name: 'sign_in_nonces',
  withoutRowid: true,
  columns: [text('nonce', { key: true }), { name: 'expires_at', kind: 'time', required: true }],
} as const satisfies Table

export const PROVIDER_SPEND = {
  name: 'provider_spend',
  columns: [
    { name: 'seq', kind: 'sequence', key: true },
    text('id', { required: true, unique: true, only: 'postgres' }),
    { name: 'at', kind: 'time', required: true },
    text('request_id', required),
    text('route', required),
    text('provider', required),
    text('role', required),
    { name: 'requests', kind: 'count', required: true },
    { name: 'input_tokens', kind: 'count' },
    { name: 'output_tokens', kind: 'count' },
    { name: 'cost_nano_usd', kind: 'nano_usd' },
  ],
} as const satisfies Table

/**
 * x402 batch-settlement: one row per payment channel a buyer opened with a deposit (src/ledger/channels,
 * x402's `Channel`), keyed by its id in lower case. Amounts are decimal text of atomic units (uint128), kept
 * exact; `config` is the channel's ChannelConfig as JSON, with payer, receiver and token beside it (lower
 * case) for the reports. `version` grows with every write: PostgreSQL's compare-and-set (migration 7).
 */
export const BATCH_CHANNELS = {
  name: 'batch_channels',
  columns: [
    text('channel_id', { key: true, required: true }),
    text('network', required),
    text('receiver', required),
    text('token', required),
    text('payer', required),
    text('config', required),
    text('charged_cumulative', required),
    text('signed_max_claimable', required),
    text('signature', required),
    text('balance', required),
    text('total_claimed', required),
    text('refund_nonce', required),
    // Chain seconds (0: no withdrawal requested); the others are milliseconds.
    { name: 'withdraw_requested_at', kind: 'time', required: true },
    { name: 'onchain_synced_ms', kind: 'millis' },
    { name: 'last_request_ms', kind: 'millis', required: true },
    // The request holding the channel (x402's pendingRequest), while one does.
    text('pending_id'),
    text('pending_max_claimable'),
    { name: 'pending_expires_ms', kind: 'millis' },
    { name: 'version', kind: 'revision', required: true },
    { name: 'updated_at', kind: 'time', required: true },
  ],
} as const satisfies Table

/** What batch settlement did on chain (deposits seen, claims, settles, refunds, withdrawals seen): appended, never changed. */
export const BATCH_REDEMPTIONS = {
  name: 'batch_redemptions',
  columns: [
    { name: 'seq', kind: 'sequence', key: true },
    text('id', { required: true, unique: true, only: 'postgres' }),
    { name: 'at', kind: 'time', required: true },
    text('kind', required),
    text('network', required),
    text('tx_hash'),
    text('amount_atomic', required),
    { name: 'channels', kind: 'count', required: true },
    text('detail'),
  ],
} as const satisfies Table

export const LEDGER_TABLES: readonly Table[] = [
  PAYMENTS,
  PAYMENT_EVENTS,
  ARTIFACTS,
  PROVIDER_SPEND,
  SIGN_IN_NONCES,
  BATCH_CHANNELS,
  BATCH_REDEMPTIONS,
]

/** A channel whose charges are not all claimed on chain yet: the seller's exposure if the buyer withdrew now. */
export const CHANNEL_UNCLAIMED = 'charged_cumulative <> total_claimed'

/** The rows whose payment id is still bound: a failed payment's id may name another payload. */
export const PAYMENT_ID_HELD = `payment_id IS NOT NULL AND state <> 'failed'`

export const LEDGER_INDEXES: readonly Index[] = [
  { name: 'payments_open', on: 'payments (state)', where: `state IN ('pending', 'in_progress')` },
  // Retention finds old failed payments through it (a handful of rows: failures are rare); without it
  // each hourly pass scanned the whole ledger (~320 ms at a million payments, on SQLite's event loop).
  { name: 'payments_failed_at', on: 'payments (updated_at)', where: `state = 'failed'` },
  // Made by the first pass that drops served payments (LEDGER_KEEP_SERVED_DAYS): ~100 bytes a payment,
  // paid only by ledgers that are pruned.
  { name: 'payments_served_at', on: 'payments (updated_at)', where: `state = 'served'`, only: 'sqlite', lazy: true },
  // The console's windows (the last 30 days, 48 hours) and `payments report --since`: a month is read
  // off the index alone, never the whole year, nor each payment by its key (88 -> 18 ms a query at a
  // year of 1,000 payments a day; bench-console.ts). PostgreSQL's migration 4 makes the same.
  { name: 'payments_by_time', on: 'payments (created_at, state, settlement, route, network, payer, amount_atomic)', only: 'sqlite' },
  {
    name: 'payments_by_time',
    on: 'payments (created_at) INCLUDE (state, settlement, route, network, payer, amount_atomic)',
    only: 'postgres',
  },
  // A payer's payment id names one payload at a time (a failed payment frees its id). PostgreSQL's unique
  // index decides between instances; SQLite decides in memory or under its write lock (sqlite.ts).
  { name: 'payments_payment_id', on: 'payments (payer, payment_id)', where: PAYMENT_ID_HELD, only: 'sqlite' },
  { name: 'payments_payment_id', on: 'payments (payer, payment_id)', where: PAYMENT_ID_HELD, only: 'postgres', unique: true },
  { name: 'payment_events_at', on: 'payment_events (at)' },
  { name: 'artifacts_expiry', on: 'artifacts (expires_at)' },
  // A sign-in finds the answer its wallet bought for the request; kept only as long as the answers are.
  { name: 'artifacts_by_buyer', on: 'artifacts (payer, fingerprint)' },
  { name: 'sign_in_nonces_expiry', on: 'sign_in_nonces (expires_at)' },
  { name: 'provider_spend_at', on: 'provider_spend (at)' },
  // A network's channels, in order (the batch scheme's claim lists them all), and those with unclaimed charges.
  { name: 'batch_channels_by_network', on: 'batch_channels (network, channel_id)' },
  { name: 'batch_channels_unclaimed', on: 'batch_channels (network)', where: CHANNEL_UNCLAIMED },
  { name: 'batch_redemptions_at', on: 'batch_redemptions (at)' },
]

const kept = (engine: Engine) => (item: { only?: Engine }) => item.only === undefined || item.only === engine

/** A table's columns in one engine, in order, with their type in its dialect. */
export const columnsIn = (table: Table, engine: Engine): (Column & { type: string })[] =>
  table.columns.filter(kept(engine)).map((column) => ({ ...column, type: TYPES[engine][column.kind] }))

/** The indexes one engine keeps (its primary keys and unique keys aside). */
export const indexesIn = (engine: Engine): Index[] => LEDGER_INDEXES.filter(kept(engine))

/** One column's definition in SQLite's dialect. A sequence key is SQLite's rowid (INTEGER PRIMARY KEY). */
export function sqliteColumn(column: Column): string {
  const parts = [column.name, TYPES.sqlite[column.kind]]
  if (column.key) parts.push('PRIMARY KEY')
  if (column.required) parts.push('NOT NULL')
  if (column.unique) parts.push('UNIQUE')
  if (column.fallback !== undefined) parts.push(`DEFAULT ${column.fallback}`)
  return parts.join(' ')
}

export const createIndex = (index: Index): string =>
  `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${index.name} ON ${index.on}${index.where ? ` WHERE ${index.where}` : ''}`

/** SQLite's DDL for the ledger's tables (a file's missing columns are added by sqlite-schema.ts). */
export const sqliteTables = (): string =>
  LEDGER_TABLES.map(
    (table) =>
      `CREATE TABLE IF NOT EXISTS ${table.name} (\n  ${table.columns.filter(kept('sqlite')).map(sqliteColumn).join(',\n  ')}\n)${table.withoutRowid ? ' WITHOUT ROWID' : ''};`,
  ).join('\n')
