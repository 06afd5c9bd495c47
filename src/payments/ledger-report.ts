import { Database } from 'bun:sqlite'
import { atomicToUsd } from './networks'

export type GroupBy = 'route' | 'day' | 'payer'

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

export interface Report {
  groups: RevenueRow[]
  unsettled: UnsettledRow[]
  events: Record<string, number>
}

const GROUP_SQL: Record<GroupBy, string> = {
  route: 'route',
  day: "date(created_at, 'unixepoch')",
  payer: 'payer',
}

/**
 * Revenue from the payment ledger, read-only (safe beside a running service). Amounts are summed as
 * integers of atomic USDC, so no float ever rounds revenue.
 */
export function readReport(path: string, o: { since: number; by: GroupBy }): Report {
  const db = new Database(path, { readonly: true })
  try {
    const has = db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'payment_events'`).get()!.n > 0
    const settlement = has ? "COALESCE(settlement, 'local')" : "'local'"
    const rows = db
      .query<Record<string, string | number>, { since: number }>(
        `SELECT ${GROUP_SQL[o.by]} AS grp,
           SUM(state = 'served') AS served,
           CAST(SUM(CASE WHEN state = 'served' THEN CAST(amount_atomic AS INTEGER) ELSE 0 END) AS TEXT) AS served_atomic,
           SUM(state = 'served' AND ${settlement} = 'settled') AS settled,
           CAST(SUM(CASE WHEN state = 'served' AND ${settlement} = 'settled' THEN CAST(amount_atomic AS INTEGER) ELSE 0 END) AS TEXT) AS settled_atomic,
           SUM(state = 'served' AND ${settlement} = 'local') AS local,
           CAST(SUM(CASE WHEN state = 'served' AND ${settlement} = 'local' THEN CAST(amount_atomic AS INTEGER) ELSE 0 END) AS TEXT) AS local_atomic,
           SUM(state = 'pending') AS pending,
           CAST(SUM(CASE WHEN state = 'pending' THEN CAST(amount_atomic AS INTEGER) ELSE 0 END) AS TEXT) AS pending_atomic,
           SUM(state = 'failed') AS failed
         FROM payments WHERE created_at >= $since GROUP BY grp ORDER BY SUM(CASE WHEN state = 'served' THEN CAST(amount_atomic AS INTEGER) ELSE 0 END) DESC, grp`,
      )
      .all({ since: o.since })
    const groups = rows.map((r) => ({
      key: String(r.grp),
      served: Number(r.served), servedAtomic: BigInt(r.served_atomic!),
      settled: Number(r.settled), settledAtomic: BigInt(r.settled_atomic!),
      local: Number(r.local), localAtomic: BigInt(r.local_atomic!),
      pending: Number(r.pending), pendingAtomic: BigInt(r.pending_atomic!),
      failed: Number(r.failed),
    }))
    const unsettled = has
      ? db
          .query<{ created_at: number; route: string; payer: string; amount_atomic: string; nonce: string; tx_hash: string | null; request_id: string; valid_before: string | null }, []>(
            `SELECT created_at, route, payer, amount_atomic, nonce, tx_hash, request_id, valid_before FROM payments WHERE state = 'pending' ORDER BY created_at`,
          )
          .all()
          .map((r) => ({ createdAt: r.created_at, route: r.route, payer: r.payer, amountAtomic: BigInt(r.amount_atomic), nonce: r.nonce, txHash: r.tx_hash, requestId: r.request_id, validBefore: r.valid_before }))
      : []
    const events = has
      ? Object.fromEntries(
          db.query<{ event: string; n: number }, { since: number }>('SELECT event, COUNT(*) AS n FROM payment_events WHERE at >= $since GROUP BY event').all({ since: o.since }).map((e) => [e.event, e.n]),
        )
      : {}
    return { groups, unsettled, events }
  } finally {
    db.close()
  }
}

export type RevenueTotals = Omit<RevenueRow, 'key'>

/** The table's total line: counts and atomic amounts added up as integers. */
export function totals(r: Report): RevenueTotals {
  const t: RevenueTotals = { served: 0, servedAtomic: 0n, settled: 0, settledAtomic: 0n, local: 0, localAtomic: 0n, pending: 0, pendingAtomic: 0n, failed: 0 }
  for (const g of r.groups) {
    t.served += g.served; t.servedAtomic += g.servedAtomic
    t.settled += g.settled; t.settledAtomic += g.settledAtomic
    t.local += g.local; t.localAtomic += g.localAtomic
    t.pending += g.pending; t.pendingAtomic += g.pendingAtomic
    t.failed += g.failed
  }
  return t
}

/** One money amount in the JSON: exact USD decimal string and integer atomic USDC (6 decimals) string. */
const money = (prefix: string, atomic: bigint) => ({ [`${prefix}_usd`]: atomicToUsd(atomic), [`${prefix}_atomic`]: atomic.toString() })

/** Unix seconds as ISO-8601 UTC without milliseconds: 2026-11-21T10:00:00Z. */
export const isoUtc = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')

const revenueJson = (g: RevenueTotals) => ({
  served_count: g.served, ...money('served', g.servedAtomic),
  settled_count: g.settled, ...money('settled', g.settledAtomic),
  local_count: g.local, ...money('local', g.localAtomic),
  pending_count: g.pending, ...money('pending', g.pendingAtomic),
  failed_count: g.failed,
})

/**
 * `payments report --json`: snake_case like the API's own envelope; every amount twice, as `*_usd`
 * (decimal string) and `*_atomic` (integer string), never a JSON number that a parser could round.
 * The schema is documented with the payments CLI; a change here is a change of that contract.
 */
export function reportJson(r: Report, by: GroupBy, since: number) {
  return {
    by,
    since: since > 0 ? isoUtc(since) : null,
    groups: r.groups.map((g) => ({ key: g.key, ...revenueJson(g) })),
    totals: revenueJson(totals(r)),
    unsettled: r.unsettled.map((u) => ({
      created_at: isoUtc(u.createdAt), route: u.route, payer: u.payer, ...money('amount', u.amountAtomic),
      nonce: u.nonce, tx_hash: u.txHash, request_id: u.requestId, valid_before_unix: u.validBefore,
    })),
    event_counts: r.events,
  }
}
