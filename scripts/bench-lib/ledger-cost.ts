// What the SQLite ledger costs per paid request, in process, without HTTP or crypto: the claim, the
// `verified` and `served` events, the served state with a 1 KB stored answer, and `durable()`, for 30
// requests per commit (what the service's group commit gathers under the paid benchmark's load). The
// ledger first grows to --rows payments, then a few rounds are timed. Variants, alternating per round:
//   file        the ledger file as the service keeps it (WAL, synchronous NORMAL)
//   memory      LEDGER_PATH=:memory: (nothing durable: the floor of the same work)
//   sequential  the file, but nonces that increase: every payment lands on the B-tree's last page
// x402 nonces are random (the payer picks them), so `sequential` is not an option; it shows how much of
// the file's cost comes from each payment dirtying a random page of its own.
// Usage: bun ledger-cost.ts [--rows 40000] [--rounds 3]
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteLedger } from '../../src/ledger/sqlite'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const ROWS = arg('rows', 40_000)
const ROUNDS = arg('rounds', 3)
const PER_ROUND = 15_000
const BATCH = 30
const BODY = JSON.stringify({ success: true, data: { pad: 'x'.repeat(940) } }) // ~1 KB, like the benchmarked answer

type Variant = 'file' | 'memory' | 'sequential'
const dir = mkdtempSync(join(tmpdir(), 'ledger-cost-'))
const payer = `0x${randomBytes(20).toString('hex')}`

function open(variant: Variant) {
  const ledger = new SqliteLedger(variant === 'memory' ? ':memory:' : join(dir, `${variant}.sqlite`))
  let counter = 0
  const nonce = () => `0x${variant === 'sequential' ? (counter++).toString(16).padStart(64, '0') : randomBytes(32).toString('hex')}`
  const one = async () => {
    const paymentNonce = nonce()
    const key = `eip155:84532:0x036cbd53842c5426634e7929541ec2318f3dcf7e:${payer}:${paymentNonce}`
    const requestId = `req_${randomBytes(12).toString('hex')}`
    const now = Date.now()
    const base = { key, requestId, routeId: 'flights.summary', payer, amountAtomic: '100000', nonce: paymentNonce, network: 'eip155:84532' }
    await ledger.claim(
      { ...base, fingerprint: 'flights.summary?destination=Tokyo', validBefore: String(Math.floor(now / 1000) + 3600) },
      now,
      0,
    )
    ledger.record({ ...base, event: 'verified', at: now })
    const artifactId = `art_${now.toString(16).padStart(12, '0')}${randomBytes(16).toString('base64url')}`
    ledger.complete(key, { id: artifactId, body: BODY, expiresAt: now + 3_600_000 }, now, { kind: 'local' })
    ledger.record({ ...base, event: 'served', at: now, detail: 'local' })
    await ledger.durable()
  }
  /** µs per request over `count` requests, BATCH at a time. */
  const run = async (count: number) => {
    const t = performance.now()
    for (let i = 0; i < count; i += BATCH) await Promise.all(Array.from({ length: BATCH }, one))
    return ((performance.now() - t) * 1000) / count
  }
  return { ledger, run }
}

const variants: Variant[] = ['file', 'memory', 'sequential']
const ledgers = Object.fromEntries(variants.map((v) => [v, open(v)])) as Record<Variant, ReturnType<typeof open>>
console.error(`growing each ledger to ${ROWS} payments…`)
for (const v of variants) await ledgers[v].run(ROWS)
const results: Record<Variant, number[]> = { file: [], memory: [], sequential: [] }
for (let r = 0; r < ROUNDS; r++) for (const v of variants) results[v].push(await ledgers[v].run(PER_ROUND))
for (const v of variants) ledgers[v].ledger.close()
rmSync(dir, { recursive: true, force: true })

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`ledger work per paid request, µs (median of ${ROUNDS} rounds of ${PER_ROUND}, after ${ROWS} payments; ${BATCH} per commit)`)
for (const v of variants)
  console.log(`${v.padEnd(11)} ${median(results[v]).toFixed(1).padStart(7)}   rounds: ${results[v].map((x) => x.toFixed(1)).join(' ')}`)
console.log(`file - memory:     ${(median(results.file) - median(results.memory)).toFixed(1)} µs (what keeping it on disk costs)`)
console.log(`file - sequential: ${(median(results.file) - median(results.sequential)).toFixed(1)} µs (what random nonces cost on disk)`)
