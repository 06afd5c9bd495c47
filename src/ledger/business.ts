/**
 * The seller's console figures from the ledger (issue 37): the revenue table of `payments report`
 * (revenue-report.ts, the same queries) over the last 30 days by day (with its revenue by route) and network and over 48 hours by
 * hour, plus what the report has no line for: payers per day, repeat buyers, and why payments failed.
 * One read snapshot; every amount an exact integer of atomic USDC.
 */
import type { Database } from 'bun:sqlite'
import type { Postgres } from '../postgres'
import {
  type Dialect,
  type GroupBy,
  hasTable,
  POSTGRES,
  type Report,
  type RevenueRow,
  reportInPostgres,
  reportOn,
  revenueSql,
  SQLITE,
  revenueRows,
} from './revenue-report'

const DAY = 86_400
const HOUR = 3_600

/** Where the console reads: the service's own ledger handle (SQLite) or client (PostgreSQL). */
export type LedgerView = { sqlite: Database } | { postgres: Postgres }

export interface Business {
  /** Unix seconds the figures were read at. */
  now: number
  /** The 30 days: from the start of the UTC day 29 days before `now`. */
  since: number
  /** The 48 hours: from the start of the UTC hour 47 hours before `now`. */
  hoursSince: number
  /** `payments report --by day --since <since>`: its groups, revenue by route, unsettled payments, events and provider spend. */
  days: Report
  hours: RevenueRow[]
  networks: RevenueRow[]
  payersByDay: { day: string; payers: number }[]
  /** Payers served in the 30 days; those served more than once, and what they paid. */
  buyers: { payers: number; repeat: number; repeatAtomic: bigint }
  /** Failed payments of the 30 days: released before any settlement (the work failed), or refused by the settlement. */
  failed: { released: number; settlementFailed: number }
  /** The last reconciliation in the 30 days (unix seconds), if any. */
  lastReconciledAt: number | null
}

const payersSql = (d: Dialect) =>
  `SELECT ${d.day} AS day, COUNT(DISTINCT payer) AS payers FROM payments WHERE created_at >= ${d.param('since')} AND state = 'served' GROUP BY day ORDER BY day`
const buyersSql = (d: Dialect) =>
  `SELECT COUNT(*) AS payers, ${d.count('n > 1')} AS repeat, ${d.text('SUM(CASE WHEN n > 1 THEN a ELSE 0 END)')} AS repeat_atomic
    FROM (SELECT payer, COUNT(*) AS n, SUM(${d.atomic}) AS a FROM payments WHERE created_at >= ${d.param('since')} AND state = 'served' GROUP BY payer) t`
const failedSql = (d: Dialect) =>
  `SELECT ${d.count('settlement IS NULL')} AS released, ${d.count("settlement = 'failed'")} AS settle_failed
    FROM payments WHERE created_at >= ${d.param('since')} AND state = 'failed'`
const reconciledSql = (d: Dialect) => `SELECT MAX(at) AS at FROM payment_events WHERE at >= ${d.param('since')} AND event = 'reconciled'`

type Num = number | string | null
interface Extra {
  payers: { day: string; payers: Num }[]
  buyers: { payers: Num; repeat: Num; repeat_atomic: string | null }
  failed: { released: Num; settle_failed: Num }
  reconciled: Num
}

/** The windows of `now`: whole UTC days and hours, so the newest bar is the one still filling. */
export function windowsOf(now: number): { since: number; hoursSince: number } {
  return { since: Math.floor(now / DAY) * DAY - 29 * DAY, hoursSince: Math.floor(now / HOUR) * HOUR - 47 * HOUR }
}

function business(now: number, days: Report, grouped: Record<'hour' | 'network', RevenueRow[]>, extra: Extra): Business {
  return {
    now,
    ...windowsOf(now),
    days,
    hours: grouped.hour,
    networks: grouped.network,
    payersByDay: extra.payers.map((row) => ({ day: String(row.day), payers: Number(row.payers ?? 0) })),
    buyers: {
      payers: Number(extra.buyers.payers ?? 0),
      repeat: Number(extra.buyers.repeat ?? 0),
      repeatAtomic: BigInt(extra.buyers.repeat_atomic ?? 0),
    },
    failed: { released: Number(extra.failed.released ?? 0), settlementFailed: Number(extra.failed.settle_failed ?? 0) },
    lastReconciledAt: extra.reconciled === null ? null : Number(extra.reconciled),
  }
}

/** The console's figures at `now` (unix seconds) from the service's ledger. */
export async function readBusiness(view: LedgerView, now: number): Promise<Business> {
  const { since, hoursSince } = windowsOf(now)
  if ('sqlite' in view) return businessOnSqlite(view.sqlite, now, since, hoursSince)
  return businessOnPostgres(view.postgres, now, since, hoursSince)
}

/** PostgreSQL: every query in one read-only transaction, one snapshot of the ledger. */
function businessOnPostgres(pg: Postgres, now: number, since: number, hoursSince: number): Promise<Business> {
  const settlement = "COALESCE(settlement, 'local')"
  return pg.run('console', (sql) =>
    sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const rows = <T>(text: string, params: unknown[]) => tx.unsafe(text, params) as Promise<T[]>
      const group = async (by: GroupBy, from: number) =>
        revenueRows(await rows<Record<string, string | number>>(revenueSql(POSTGRES, by, settlement), [from]))
      const days = await reportInPostgres(tx, { since, by: 'day' })
      const grouped = { hour: await group('hour', hoursSince), network: await group('network', since) }
      const extra: Extra = {
        payers: await rows(payersSql(POSTGRES), [since]),
        buyers: (await rows<Extra['buyers']>(buyersSql(POSTGRES), [since]))[0]!,
        failed: (await rows<Extra['failed']>(failedSql(POSTGRES), [since]))[0]!,
        reconciled: (await rows<{ at: Num }>(reconciledSql(POSTGRES), [since]))[0]?.at ?? null,
      }
      return business(now, days, grouped, extra)
    }),
  )
}

function businessOnSqlite(db: Database, now: number, since: number, hoursSince: number): Business {
  // One read transaction: the figures are of one moment even while the service commits.
  return db
    .transaction(() => {
      const has = hasTable(db, 'payment_events')
      const settlement = has ? "COALESCE(settlement, 'local')" : "'local'"
      const all = <T>(query: string, from: number) => db.query<T, { since: number }>(query).all({ since: from })
      const group = (by: GroupBy, from: number) =>
        revenueRows(all<Record<string, string | number>>(revenueSql(SQLITE, by, settlement), from))
      const extra: Extra = {
        payers: all(payersSql(SQLITE), since),
        buyers: all<Extra['buyers']>(buyersSql(SQLITE), since)[0]!,
        failed: has ? all<Extra['failed']>(failedSql(SQLITE), since)[0]! : { released: 0, settle_failed: 0 },
        reconciled: has ? (all<{ at: Num }>(reconciledSql(SQLITE), since)[0]?.at ?? null) : null,
      }
      const days = reportOn(db, { since, by: 'day' })
      return business(now, days, { hour: group('hour', hoursSince), network: group('network', since) }, extra)
    })
    .deferred()
}
