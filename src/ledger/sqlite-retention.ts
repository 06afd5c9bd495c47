/** The SQLite ledger's retention pass (LEDGER_KEEP_FAILED_DAYS, LEDGER_KEEP_SERVED_DAYS): what `purgeExpired` drops. */
import type { Database } from 'bun:sqlite'
import { PRUNE_CHUNK, SERVED_INDEX, type LedgerStatements } from './sqlite-schema'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Payments in `state` last changed before `before`, with their events (and, served, their artifacts and
 * spend): PRUNE_CHUNK payments per transaction, with a turn of the event loop between, so that a pass
 * over a large ledger never holds up the requests being answered.
 */
export async function prune(db: Database, stmts: LedgerStatements, state: 'failed' | 'served', before: number): Promise<number> {
  if (state === 'served') db.exec(SERVED_INDEX) // at once when it exists (built at start-up)
  const chunk = db.transaction(() => {
    const rows = (state === 'failed' ? stmts.oldFailed : stmts.oldServed).all({ before })
    if (!rows.length) return { more: false, dropped: 0 }
    // Served payments come in runs of neighbours in time: one span of the events' index covers a chunk.
    // Failed ones are scattered over days: each is looked up over its own span.
    const spans = state === 'served' ? [rows] : rows.map((row) => [row])
    let dropped = 0
    for (const span of spans)
      dropped += stmts.pruneEvents.run({
        from: Math.min(...span.map((row) => row.created_at)),
        to: Math.max(...span.map((row) => row.updated_at)),
        keys: JSON.stringify(span.map((row) => row.key)),
      }).changes
    const keys = JSON.stringify(rows.map((row) => row.key))
    dropped += stmts.prunePayments.run({ keys }).changes
    const ids = rows.flatMap((row) => (row.artifact_id ? [row.artifact_id] : []))
    if (state === 'served' && ids.length) dropped += stmts.pruneArtifacts.run({ ids: JSON.stringify(ids) }).changes
    return { more: rows.length === PRUNE_CHUNK, dropped }
  })
  let dropped = 0
  for (let more = true; more; ) {
    // IMMEDIATE: the write lock is taken before the read, so that another process on the same file
    // (REUSE_PORT) makes this wait (busy_timeout) instead of failing a read turned write with SQLITE_BUSY.
    const done = chunk.immediate()
    dropped += done.dropped
    more = done.more
    if (more) await nextTurn()
  }
  if (state === 'served') {
    let spent: number
    do {
      spent = stmts.pruneSpend.run({ before }).changes
      dropped += spent
      if (spent) await nextTurn()
    } while (spent)
  }
  return dropped
}
