/**
 * What the hourly retention pass costs the requests being answered: a SQLite ledger of BENCH_PAYMENTS
 * (1,000,000) payments, one in a thousand failed, each with one event, is pruned the way the pass does
 * (`purgeExpired`) while a 1 ms timer measures the longest stall of the event loop. Three passes: the
 * failed payments (LEDGER_KEEP_FAILED_DAYS), the same again with nothing left to drop (every hour after),
 * and the older half of the served ones (LEDGER_KEEP_SERVED_DAYS first set on a full ledger). Prints a
 * Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-retention.ts
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteLedger } from '../src/ledger/sqlite'

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000_000)
const dir = mkdtempSync(join(tmpdir(), 'bench-retention-'))
const file = join(dir, 'ledger.sqlite')

// The schema as the ledger makes it, then rows written directly: a million through the gate would take an hour.
new SqliteLedger(file).close()
const db = new Database(file)
const payment = db.query(
  `INSERT INTO payments (key, network, payer, nonce, route, fingerprint, amount_atomic, request_id, state, created_at, updated_at)
   VALUES (?, 'eip155:8453', '0x00000000000000000000000000000000000000aa', ?, 'flights.summary', 'f', '100000', 'req', ?, ?, ?)`,
)
const event = db.query(
  `INSERT INTO payment_events (at, event, payment_key, request_id, route, payer, amount_atomic, nonce, network)
   VALUES (?, 'served', ?, 'req', 'flights.summary', '0x00000000000000000000000000000000000000aa', '100000', 'n', 'eip155:8453')`,
)
db.transaction(() => {
  for (let i = 0; i < PAYMENTS; i++) {
    const key = `${Bun.hash(String(i)).toString(16)}-${i}` // keys in no particular order, as hashes of proofs are
    payment.run(key, String(i), i % 1000 === 0 ? 'failed' : 'served', i, i)
    event.run(i, key)
  }
})()
db.close()

// As the service opens it with LEDGER_KEEP_SERVED_DAYS set: the served payments' index is built at start-up.
const opening = performance.now()
const ledger = new SqliteLedger(file, { prunesServed: true })
const openMs = performance.now() - opening
let last = performance.now()
let stall = 0
const ticker = setInterval(() => {
  const now = performance.now()
  stall = Math.max(stall, now - last)
  last = now
}, 1)

async function pass(name: string, keep: { failedSeconds: number; servedSeconds: number | null }): Promise<string> {
  await Bun.sleep(20)
  stall = 0
  last = performance.now()
  const started = performance.now()
  const dropped = await ledger.purgeExpired(PAYMENTS + 10, keep)
  const took = performance.now() - started
  await Bun.sleep(5) // the timer's first turn after the pass sees its last stall
  const row = `| ${name} | ${dropped.toLocaleString('en')} | ${Math.round(took).toLocaleString('en')} ms | ${Math.round(stall)} ms |`
  console.error(row)
  return row
}

const rows = [
  await pass('failed payments (one in a thousand)', { failedSeconds: 0, servedSeconds: null }),
  await pass('the same, nothing left to drop (every hour after)', { failedSeconds: 0, servedSeconds: null }),
  await pass('the older half of the served ones', { failedSeconds: 0, servedSeconds: PAYMENTS / 2 }),
]
clearInterval(ticker)
ledger.close()
rmSync(dir, { recursive: true, force: true })

console.log(`### Retention pass on a ledger of ${PAYMENTS.toLocaleString('en')} payments (\`bun scripts/bench-retention.ts\`) — ${cpus().length} cores, Bun ${Bun.version}

Opening the ledger with LEDGER_KEEP_SERVED_DAYS set (its index built, once): ${Math.round(openMs).toLocaleString('en')} ms.

| pass | rows dropped (payments and events) | time | longest event-loop stall |
|---|---|---|---|
${rows.join('\n')}`)
