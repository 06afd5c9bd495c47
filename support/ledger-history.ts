/**
 * A seller's payment history, made up and deterministic, written straight into a ledger (SQLite file
 * or PostgreSQL) as the service would have: payments in every state on several routes and networks,
 * their events, reconciliations and provider spend. For the console's tests and its benchmark
 * (scripts/bench-console.ts: a year of payments).
 */
import { Database } from 'bun:sqlite'
import { CATALOG } from '../src/catalog'
import { usdToAtomic } from '../src/core/usdc'
import { SqliteLedger } from '../src/ledger/sqlite'
import { Postgres } from '../src/postgres/client'
import { migrate } from '../src/ledger/postgres-migrations'

export interface HistoryOptions {
  /** Unix seconds of the newest payment's day. */
  now: number
  days: number
  perDay: number
  seed?: number
}

type Payment = [
  key: string,
  network: string,
  payer: string,
  nonce: string,
  route: string,
  fingerprint: string,
  amount: string,
  requestId: string,
  state: string,
  artifactId: null,
  createdAt: number,
  updatedAt: number,
  settlement: string | null,
  txHash: string | null,
  validBefore: string,
]
type Event = [
  at: number,
  event: string,
  key: string,
  requestId: string,
  route: string,
  payer: string,
  amount: string,
  nonce: string,
  network: string,
  txHash: string | null,
  detail: string | null,
]
type Spend = [
  at: number,
  requestId: string,
  route: string,
  provider: string,
  role: string,
  requests: number,
  inputTokens: number | null,
  outputTokens: number | null,
  costNano: string | null,
]

export interface History {
  payments: Payment[]
  events: Event[]
  spend: Spend[]
}

const NETWORKS = ['eip155:8453', 'eip155:8453', 'eip155:8453', 'eip155:137']
const PAYERS = 500

/** The history: per day `perDay` payments; 1 in 50 released (the work failed), 1 in 200 refused at settlement, the last day's 1 in 100 still pending. */
export function history(options: HistoryOptions): History {
  let state = options.seed ?? 20261128
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const routes = CATALOG.map((r) => ({ id: r.id, amount: usdToAtomic(r.priceUsd).toString(), china: r.id.startsWith('china.') }))
  const out: History = { payments: [], events: [], spend: [] }
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')
  for (let day = options.days - 1; day >= 0; day--) {
    for (let i = 0; i < options.perDay; i++) {
      const paymentIndex = out.payments.length
      const at = options.now - day * 86_400 - Math.floor(next() * 86_400)
      const route = routes[Math.floor(next() ** 2 * routes.length)]!
      const payer = `0x${hex(Math.floor(next() ** 3 * PAYERS) + 1, 40)}`
      const network = NETWORKS[Math.floor(next() * NETWORKS.length)]!
      const nonce = `0x${hex(paymentIndex + 1, 64)}`
      const key = `${network}:asset:${payer}:${nonce}`
      const requestId = `req_hist_${paymentIndex}`
      const roll = next()
      const [st, settlement] =
        roll < 0.02
          ? ['failed', null]
          : roll < 0.025
            ? ['failed', 'failed']
            : day === 0 && roll < 0.035
              ? ['pending', 'pending']
              : ['served', 'settled']
      const tx = settlement === 'settled' || settlement === 'pending' ? `0x${hex(paymentIndex + 7, 64)}` : null
      out.payments.push([
        key,
        network,
        payer,
        nonce,
        route.id,
        `${route.id}|hist`,
        route.amount,
        requestId,
        st,
        null,
        at,
        at + 2,
        settlement,
        tx,
        String(at + 600),
      ])
      const event = (kind: string, detail: string | null, dt = 0) =>
        out.events.push([at + dt, kind, key, requestId, route.id, payer, route.amount, nonce, network, tx, detail])
      event('verified', null)
      event(
        st === 'served' ? 'served' : st,
        st === 'served' ? 'settled' : st === 'failed' ? (settlement ? 'settle: refused' : 'work failed') : null,
        1,
      )
      if (st === 'served' && paymentIndex % 97 === 0) event('reconciled', 'settled', 60)
      if (route.china && st !== 'failed' && next() < 0.4)
        out.spend.push([
          at,
          requestId,
          route.id,
          'tikhub',
          'native',
          1 + Math.floor(next() * 3),
          null,
          null,
          String(2_000_000 * (1 + (paymentIndex % 3))),
        ])
    }
  }
  return out
}

const PAYMENT_COLUMNS =
  'key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, artifact_id, created_at, updated_at, settlement, tx_hash, valid_before'
const EVENT_COLUMNS = 'at, event, payment_key, request_id, route, payer, amount_atomic, nonce, network, tx_hash, detail'
const SPEND_COLUMNS = 'at, request_id, route, provider, role, requests, input_tokens, output_tokens, cost_nano_usd'
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/** Writes a history into a SQLite ledger file (made with the service's own schema when new). */
export function writeSqliteHistory(path: string, history: History): void {
  new SqliteLedger(path).close()
  const db = new Database(path)
  try {
    const insert = (table: string, columns: string, rows: unknown[][]) => {
      const statement = db.prepare(`INSERT INTO ${table} (${columns}) VALUES (${marks(columns.split(',').length)})`)
      db.transaction(() => {
        for (const row of rows) statement.run(...(row as never[]))
      })()
    }
    insert('payments', PAYMENT_COLUMNS, history.payments)
    insert('payment_events', EVENT_COLUMNS, history.events)
    insert('provider_spend', SPEND_COLUMNS, history.spend)
  } finally {
    db.close()
  }
}

/** Writes a history into a PostgreSQL ledger (its schema migrated first), in batches of rows. */
export async function writePostgresHistory(url: string, history: History): Promise<void> {
  const pg = new Postgres(url)
  try {
    await migrate(pg)
    const insert = async (table: string, columns: string, rows: unknown[][], id?: (index: number) => string) => {
      const all = id ? `id, ${columns}` : columns
      const width = all.split(',').length
      for (let from = 0; from < rows.length; from += 1000) {
        const batch = rows.slice(from, from + 1000).map((row, i) => (id ? [id(from + i), ...row] : row))
        const values = batch.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ')
        await pg.sql.unsafe(`INSERT INTO ${table} (${all}) VALUES ${values}`, batch.flat())
      }
    }
    await insert('payments', PAYMENT_COLUMNS, history.payments)
    await insert('payment_events', EVENT_COLUMNS, history.events, (i) => `hist-event-${i}`)
    await insert('provider_spend', SPEND_COLUMNS, history.spend, (i) => `hist-spend-${i}`)
  } finally {
    await pg.close()
  }
}
