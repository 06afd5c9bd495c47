import { Database } from 'bun:sqlite'

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
