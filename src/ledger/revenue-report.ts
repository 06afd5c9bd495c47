import { Database } from 'bun:sqlite'
import { Postgres } from '../postgres'
import { atomicToUsd, nanoToUsd } from '../core'

/** What revenue is broken down by: a column of `payments` (network: its CAIP-2 id), the day or the hour (UTC). */
export type GroupBy = 'route' | 'day' | 'hour' | 'payer' | 'network'

/** One line of the revenue table: payments grouped by route, day (UTC) or payer, from `since` on. */
export interface RevenueRow {
  key: string
  /** Paid answers delivered, and their USD (atomic USDC summed). */
  served: number
  servedAtomic: bigint
  /** Of those, settled on chain (facilitator and self modes)... */
  settled: number
  settledAtomic: bigint
  /** ...and verified offline only (local mode: no money moved). */
  local: number
  localAtomic: bigint
  pending: number
  pendingAtomic: bigint
  failed: number
}

export interface UnsettledRow {
  createdAt: number
  route: string
  payer: string
  amountAtomic: bigint
  nonce: string
  txHash: string | null
  requestId: string
  validBefore: string | null
}

/** What one provider cost on one route: requests, tokens, and their price where the seller configured one. */
export interface SpendRow {
  route: string
  provider: string
  /** Paid requests whose answers made provider requests (cache hits make none). */
  answers: number
  requests: number
  inputTokens: number
  outputTokens: number
  /** nano-USD (1e-9) of the priced requests. */
  costNano: bigint
  /** Requests with no price configured (not in costNano). */
  unpricedRequests: number
}

export interface Report {
  groups: RevenueRow[]
  unsettled: UnsettledRow[]
  events: Record<string, number>
  /** Revenue by route over the same period (whatever `groups` are by): the lines of the margins. */
  routes: RevenueRow[]
  /** Provider spend by route and provider, set against `revenueByRoute` (served USD per route). */
  spend: SpendRow[]
  revenueByRoute: Record<string, bigint>
}

/** The few expressions SQLite and PostgreSQL spell differently. */
export interface Dialect {
  day: string
  /** The UTC hour as `YYYY-MM-DD HH:00`. */
  hour: string
  /** 1 when the condition holds, else 0 (summed to count). */
  count(cond: string): string
  /** The atomic amount as an exact integer, summed without rounding. */
  atomic: string
  text(expr: string): string
  param(name: string): string
}
export const SQLITE: Dialect = {
  day: "date(created_at, 'unixepoch')",
  hour: "strftime('%Y-%m-%d %H:00', created_at, 'unixepoch')",
  count: (cond) => `SUM(${cond})`,
  atomic: 'CAST(amount_atomic AS INTEGER)',
  text: (e) => `CAST(${e} AS TEXT)`,
  param: (name) => `$${name}`,
}
export const POSTGRES: Dialect = {
  day: "to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  hour: "to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:00')",
  count: (cond) => `SUM((${cond})::int)`,
  atomic: 'amount_atomic::numeric',
  text: (e) => `(${e})::text`,
  param: () => '$1',
}

export function revenueSql(dialect: Dialect, by: GroupBy, settlement: string): string {
  const group = by === 'day' ? dialect.day : by === 'hour' ? dialect.hour : by
  const sum = (cond: string) => dialect.text(`SUM(CASE WHEN ${cond} THEN ${dialect.atomic} ELSE 0 END)`)
  const served = "state = 'served'"
  return `SELECT ${group} AS grp,
      ${dialect.count(served)} AS served, ${sum(served)} AS served_atomic,
      ${dialect.count(`${served} AND ${settlement} = 'settled'`)} AS settled, ${sum(`${served} AND ${settlement} = 'settled'`)} AS settled_atomic,
      ${dialect.count(`${served} AND ${settlement} = 'local'`)} AS local, ${sum(`${served} AND ${settlement} = 'local'`)} AS local_atomic,
      ${dialect.count("state = 'pending'")} AS pending, ${sum("state = 'pending'")} AS pending_atomic,
      ${dialect.count("state = 'failed'")} AS failed
    FROM payments WHERE created_at >= ${dialect.param('since')} GROUP BY grp ORDER BY SUM(CASE WHEN ${served} THEN ${dialect.atomic} ELSE 0 END) DESC, grp`
}
/** Provider spend by route and provider; the cost summed as an exact integer of nano-USD. */
function spendSql(dialect: Dialect): string {
  const cost = dialect === SQLITE ? 'CAST(cost_nano_usd AS INTEGER)' : 'cost_nano_usd'
  return `SELECT route, provider, COUNT(DISTINCT request_id) AS answers, SUM(requests) AS requests,
      SUM(COALESCE(input_tokens, 0)) AS input_tokens, SUM(COALESCE(output_tokens, 0)) AS output_tokens,
      ${dialect.text(`SUM(COALESCE(${cost}, 0))`)} AS cost, SUM(CASE WHEN cost_nano_usd IS NULL THEN requests ELSE 0 END) AS unpriced
    FROM provider_spend WHERE at >= ${dialect.param('since')} GROUP BY route, provider ORDER BY route, provider`
}
type SpendDbRow = {
  route: string
  provider: string
  answers: number | string
  requests: number | string
  input_tokens: number | string
  output_tokens: number | string
  cost: string | null
  unpriced: number | string | null
}

// The IN term repeats the partial index payments_open's condition, so that SQLite uses it (it cannot tell
// that state = 'pending' implies it): a handful of rows instead of a scan of every payment (758 -> 0.1 ms
// at a year of payments).
const UNSETTLED_SQL = `SELECT created_at, route, payer, amount_atomic, nonce, tx_hash, request_id, valid_before FROM payments
  WHERE state IN ('pending', 'in_progress') AND state = 'pending' ORDER BY created_at`
type UnsettledDbRow = {
  created_at: number | string
  route: string
  payer: string
  amount_atomic: string
  nonce: string
  tx_hash: string | null
  request_id: string
  valid_before: string | null
}

/** The rows of a revenue query (revenueSql) as the report's lines. */
export const revenueRows = (rows: Record<string, string | number>[]): RevenueRow[] =>
  rows.map((row) => ({
    key: String(row.grp),
    served: Number(row.served ?? 0),
    servedAtomic: BigInt(row.served_atomic ?? 0),
    settled: Number(row.settled ?? 0),
    settledAtomic: BigInt(row.settled_atomic ?? 0),
    local: Number(row.local ?? 0),
    localAtomic: BigInt(row.local_atomic ?? 0),
    pending: Number(row.pending ?? 0),
    pendingAtomic: BigInt(row.pending_atomic ?? 0),
    failed: Number(row.failed ?? 0),
  }))

function toReport(
  rows: Record<string, string | number>[],
  unsettled: UnsettledDbRow[],
  events: { event: string; n: number | string }[],
  spend: SpendDbRow[],
  byRoute: Record<string, string | number>[],
): Report {
  const routes = revenueRows(byRoute)
  return {
    spend: spend.map((row) => ({
      route: row.route,
      provider: row.provider,
      answers: Number(row.answers),
      requests: Number(row.requests),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costNano: BigInt(row.cost ?? 0),
      unpricedRequests: Number(row.unpriced ?? 0),
    })),
    routes,
    revenueByRoute: Object.fromEntries(routes.map((r) => [r.key, r.servedAtomic])),
    groups: revenueRows(rows),
    unsettled: unsettled.map((row) => ({
      createdAt: Number(row.created_at),
      route: row.route,
      payer: row.payer,
      amountAtomic: BigInt(row.amount_atomic),
      nonce: row.nonce,
      txHash: row.tx_hash,
      requestId: row.request_id,
      validBefore: row.valid_before,
    })),
    events: Object.fromEntries(events.map((e) => [e.event, Number(e.n)])),
  }
}

/** The same report from the PostgreSQL ledger (LEDGER_URL), in one read-only snapshot. */
export async function readReportPostgres(url: string, options: { since: number; by: GroupBy }): Promise<Report> {
  const pg = new Postgres(url)
  try {
    return await pg.run('report', (sql) => sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', (tx) => reportInPostgres(tx, options)))
  } finally {
    await pg.close()
  }
}

/** The report's queries inside a PostgreSQL transaction a caller holds (the console reads more in the same snapshot). */
export async function reportInPostgres(
  tx: { unsafe: (query: string, params?: unknown[]) => Promise<unknown> },
  options: { since: number; by: GroupBy },
) {
  const rows = <T>(text: string, params?: unknown[]) => tx.unsafe(text, params) as Promise<T[]>
  return toReport(
    await rows(revenueSql(POSTGRES, options.by, "COALESCE(settlement, 'local')"), [options.since]),
    await rows(UNSETTLED_SQL),
    await rows('SELECT event, COUNT(*) AS n FROM payment_events WHERE at >= $1 GROUP BY event', [options.since]),
    await rows(spendSql(POSTGRES), [options.since]),
    await rows(revenueSql(POSTGRES, 'route', "COALESCE(settlement, 'local')"), [options.since]),
  )
}

/**
 * Revenue from the payment ledger, read-only (safe beside a running service). Amounts are summed as
 * integers of atomic USDC, so no float ever rounds revenue.
 */
export function readReport(path: string, options: { since: number; by: GroupBy }): Report {
  const db = new Database(path, { readonly: true })
  try {
    return reportOn(db, options)
  } finally {
    db.close()
  }
}

/** Whether a ledger file has a table (files from older releases lack the later ones: read as empty). */
export const hasTable = (db: Database, name: string) =>
  db.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = ?`).get(name)!.n > 0

/** The report on an open SQLite ledger (a read-only file handle, or the service's own). */
export function reportOn(db: Database, options: { since: number; by: GroupBy }): Report {
  const has = hasTable(db, 'payment_events')
  const settlement = has ? "COALESCE(settlement, 'local')" : "'local'"
  return toReport(
    db.query<Record<string, string | number>, { since: number }>(revenueSql(SQLITE, options.by, settlement)).all({ since: options.since }),
    has ? db.query<UnsettledDbRow, []>(UNSETTLED_SQL).all() : [],
    has
      ? db
          .query<{ event: string; n: number }, { since: number }>(
            'SELECT event, COUNT(*) AS n FROM payment_events WHERE at >= $since GROUP BY event',
          )
          .all({ since: options.since })
      : [],
    hasTable(db, 'provider_spend') ? db.query<SpendDbRow, { since: number }>(spendSql(SQLITE)).all({ since: options.since }) : [],
    db.query<Record<string, string | number>, { since: number }>(revenueSql(SQLITE, 'route', settlement)).all({ since: options.since }),
  )
}

export type RevenueTotals = Omit<RevenueRow, 'key'>

/** A line of nothing: no payment in any state. */
export const noRevenue = (): RevenueTotals => ({
  served: 0,
  servedAtomic: 0n,
  settled: 0,
  settledAtomic: 0n,
  local: 0,
  localAtomic: 0n,
  pending: 0,
  pendingAtomic: 0n,
  failed: 0,
})

/** The table's total line: counts and atomic amounts added up as integers. */
export function totals(report: Report): RevenueTotals {
  const total = noRevenue()
  for (const group of report.groups) {
    total.served += group.served
    total.servedAtomic += group.servedAtomic
    total.settled += group.settled
    total.settledAtomic += group.settledAtomic
    total.local += group.local
    total.localAtomic += group.localAtomic
    total.pending += group.pending
    total.pendingAtomic += group.pendingAtomic
    total.failed += group.failed
  }
  return total
}

/** One money amount in the JSON: exact USD decimal string and integer atomic USDC (6 decimals) string. */
export const money = <P extends string>(prefix: P, atomic: bigint) =>
  ({ [`${prefix}_usd`]: atomicToUsd(atomic), [`${prefix}_atomic`]: atomic.toString() }) as { [K in `${P}_usd` | `${P}_atomic`]: string }

/** Unix seconds as ISO-8601 UTC without milliseconds: 2026-11-21T10:00:00Z. */
export const isoUtc = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')

export const revenueJson = (totals: RevenueTotals) => ({
  served_count: totals.served,
  ...money('served', totals.servedAtomic),
  settled_count: totals.settled,
  ...money('settled', totals.settledAtomic),
  local_count: totals.local,
  ...money('local', totals.localAtomic),
  pending_count: totals.pending,
  ...money('pending', totals.pendingAtomic),
  failed_count: totals.failed,
})

/**
 * `payments report --json`: snake_case like the API's own envelope; every amount twice, as `*_usd`
 * (decimal string) and `*_atomic` (integer string), never a JSON number that a parser could round.
 * The schema is documented with the payments CLI; a change here is a change of that contract.
 */
export function reportJson(report: Report, by: GroupBy, since: number) {
  return {
    by,
    since: since > 0 ? isoUtc(since) : null,
    groups: report.groups.map((g) => ({ key: g.key, ...revenueJson(g) })),
    totals: revenueJson(totals(report)),
    unsettled: report.unsettled.map((payment) => ({
      created_at: isoUtc(payment.createdAt),
      route: payment.route,
      payer: payment.payer,
      ...money('amount', payment.amountAtomic),
      nonce: payment.nonce,
      tx_hash: payment.txHash,
      request_id: payment.requestId,
      valid_before_unix: payment.validBefore,
    })),
    event_counts: report.events,
    provider_spend: report.spend.map((spend) => ({
      route: spend.route,
      provider: spend.provider,
      answers: spend.answers,
      requests: spend.requests,
      input_tokens: spend.inputTokens,
      output_tokens: spend.outputTokens,
      cost_usd: nanoToUsd(spend.costNano),
      cost_nano_usd: spend.costNano.toString(),
      unpriced_requests: spend.unpricedRequests,
    })),
    margin_by_route: marginByRoute(report).map((margin) => ({
      route: margin.route,
      ...money('revenue', margin.revenueAtomic),
      provider_cost_usd: nanoToUsd(margin.costNano),
      provider_cost_nano_usd: margin.costNano.toString(),
      margin_usd: nanoToUsd(margin.revenueAtomic * 1000n - margin.costNano),
      unpriced_requests: margin.unpricedRequests,
    })),
  }
}

/** Revenue (served, atomic USDC) against priced provider cost (nano-USD) for every route that spent. */
export function marginByRoute(report: Report): { route: string; revenueAtomic: bigint; costNano: bigint; unpricedRequests: number }[] {
  const routes = [...new Set(report.spend.map((s) => s.route))]
  return routes.map((route) => {
    const rows = report.spend.filter((s) => s.route === route)
    return {
      route,
      revenueAtomic: report.revenueByRoute[route] ?? 0n,
      costNano: rows.reduce((t, s) => t + s.costNano, 0n),
      unpricedRequests: rows.reduce((t, s) => t + s.unpricedRequests, 0),
    }
  })
}
