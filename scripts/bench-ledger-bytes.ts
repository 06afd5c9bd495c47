/**
 * What payments cost in ledger bytes: the SQLite ledger file's used pages ((page_count - freelist_count)
 * x page_size, after a checkpoint) grown by BENCH_PAYMENTS (1,000) payments of each kind through the real
 * gate: served (local mode), refused by the facilitator's verification (an empty wallet: the settler
 * answers `insufficient_funds`), and failed handlers (nothing charged); then what the retention pass
 * gives back. Prints a Markdown section for BENCHMARKS.md.
 *
 *   bun scripts/bench-ledger-bytes.ts
 */
import { Database } from 'bun:sqlite'
import { DEV_OFFER } from '../support/offers'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../src/catalog'
import { DEV_PAY_TO } from '../src/config/config'
import { ApiError } from '../src/core/errors'
import { PaymentGate } from '../src/payments/gate/gate'
import { usdToAtomic } from '../src/core/usdc'
import { localSettler, type Settler } from '../src/payments/settler'
import { SqliteLedger } from '../src/ledger/sqlite'
import { VerifyGuard } from '../src/payments/gate/verify-guard'
import { createPayer } from '../support/payer'
import { proofFromHeader } from '../src/payments/gate/proof'

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1000)
const route = routeById.get('flights.summary')!
const dir = mkdtempSync(join(tmpdir(), 'bench-ledger-bytes-'))
const file = join(dir, 'ledger.sqlite')
const ledger = new SqliteLedger(file)
const answer = JSON.stringify({
  success: true,
  data: { destination: 'Tokyo', months: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, arrivals: 1000 + i })) },
})

/** Used bytes of the file: pages in use, after the write-ahead log is folded in. */
function usedBytes(): number {
  const db = new Database(file)
  try {
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    const one = (pragma: string) => Object.values(db.query(`PRAGMA ${pragma}`).get() as Record<string, number>)[0]!
    return (one('page_count') - one('freelist_count')) * one('page_size')
  } finally {
    db.close()
  }
}

const refusing: Settler = {
  mode: 'facilitator',
  verify: async () => ({ ok: false, reason: 'insufficient_funds', message: 'The facilitator refused the payment: insufficient_funds.' }),
  settle: async () => ({ status: 'failed', reason: 'not reached' }),
}

/** N payments through a gate with `settler`, each from a fresh wallet; `work` answers or throws. */
async function run(settler: Settler, work: () => Promise<string>): Promise<Record<string, number>> {
  const gate = new PaymentGate({
    offers: [DEV_OFFER],
    artifactTtlSeconds: 86400,
    ledger,
    settler,
    ...(settler.verify ? { verifyGuard: new VerifyGuard({ concurrency: 1_000_000, newPayersPerSecond: 1_000_000 }) } : {}),
  })
  const outcomes: Record<string, number> = {}
  for (let i = 0; i < PAYMENTS; i++) {
    const proof = await createPayer().proof({ value: usdToAtomic(route.priceUsd) })
    const req = {
      route,
      payment: proofFromHeader(proof),
      resourceUrl: `http://localhost${route.path}`,
      requestId: `req_${i}`,
      fingerprint: `${route.id}|${i}`,
    }
    const outcome = await Promise.resolve()
      .then(() => {
        const auth = gate.authorize(req)
        if (auth instanceof ApiError) throw auth
        return gate.fulfil(auth, work)
      })
      .then(
        () => 'answered',
        (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
      )
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
  }
  await ledger.durable()
  return outcomes
}

const rows: string[] = []
let before = usedBytes()
const measure = async (what: string, settler: Settler, work: () => Promise<string>) => {
  const outcomes = await run(settler, work)
  const after = usedBytes()
  rows.push(
    `| ${what} | ${JSON.stringify(outcomes).replaceAll('"', '')} | ${Math.round(((after - before) / PAYMENTS) * 1000).toLocaleString('en')} |`,
  )
  before = after
}
const empty = before
await measure('served (local mode)', localSettler, async () => answer)
await measure('refused by verification (empty wallets)', refusing, async () => answer)
await measure('failed handler (nothing charged)', localSettler, async () => {
  throw new ApiError('provider_unavailable', 'down')
})
const grown = usedBytes()
await ledger.purgeExpired(Math.floor(Date.now() / 1000) + 1, { failedSeconds: 0, servedSeconds: null })
const pruned = usedBytes()
ledger.close()
rmSync(dir, { recursive: true, force: true })

console.log(`### Ledger bytes per ${PAYMENTS.toLocaleString('en')} payments (\`bun scripts/bench-ledger-bytes.ts\`) — ${cpus().length} cores, Bun ${Bun.version}

Used pages of the SQLite ledger file after a checkpoint; each payment from a fresh wallet through the real gate; a stored answer of ${answer.length} bytes.

| payments | outcomes | bytes per ${PAYMENTS.toLocaleString('en')} |
|---|---|---|
${rows.join('\n')}

Empty file ${empty.toLocaleString('en')} bytes; after the three runs ${grown.toLocaleString('en')}; after the retention pass with LEDGER_KEEP_FAILED_DAYS=0 ${pruned.toLocaleString('en')} in use (the pages freed are reused).`)
