// The claim of a paid request on its own: what refusing a replayed proof (or taking a fresh one) costs
// per request on each ledger. PostgreSQL: one INSERT … ON CONFLICT round trip over TCP to the server on
// this host; SQLite: a lookup in memory and the file. Sequential (latency) and 50 at a time (throughput).
// Usage: bun claim-cost.ts <postgres url>
import { SqliteLedger } from '../../src/ledger/sqlite'
import type { PaymentClaim, PaymentLedger } from '../../src/ledger/contract'
import { Postgres } from '../../src/postgres/client'
import { InstanceRegistry } from '../../src/postgres/instances'
import { PostgresLedger } from '../../src/ledger/postgres'
import { migrate } from '../../src/ledger/postgres-migrations'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const url = process.argv[2]
if (!url) throw new Error('usage: claim-cost.ts <postgres url>')
const CLAIMS = 5000
const claim = (key: string): PaymentClaim => ({
  key,
  network: 'eip155:84532',
  payer: '0xbench',
  nonce: key,
  routeId: 'flights.summary',
  fingerprint: 'fp',
  amountAtomic: '100000',
  requestId: `req-${key}`,
})
const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!

async function measure(name: string, ledger: PaymentLedger, prefix: string) {
  const now = Math.floor(Date.now() / 1000)
  const times: number[] = []
  for (let i = 0; i < CLAIMS; i++) {
    const startedAt = performance.now()
    await ledger.claim(claim(`${prefix}-s${i}`), now, now - 60)
    times.push((performance.now() - startedAt) * 1000)
  }
  await ledger.durable()
  // A replay: the same key again is refused (taken).
  const replays: number[] = []
  for (let i = 0; i < CLAIMS; i++) {
    const startedAt = performance.now()
    const outcome = await ledger.claim(claim(`${prefix}-s${i}`), now, now - 60)
    replays.push((performance.now() - startedAt) * 1000)
    if (outcome.status !== 'taken') throw new Error('a replayed claim was not refused')
  }
  const t0 = performance.now()
  for (let b = 0; b < CLAIMS / 50; b++)
    await Promise.all(Array.from({ length: 50 }, (_, j) => ledger.claim(claim(`${prefix}-c${b}-${j}`), now, now - 60)))
  const perSecond = CLAIMS / ((performance.now() - t0) / 1000)
  await ledger.durable()
  console.log(
    `claim ${name.padEnd(10)} new: p50 ${pct(times, 0.5).toFixed(0)} µs, p99 ${pct(times, 0.99).toFixed(0)} µs; replay refused: p50 ${pct(replays, 0.5).toFixed(0)} µs, p99 ${pct(replays, 0.99).toFixed(0)} µs; 50 at a time: ${perSecond.toFixed(0)} claims/s`,
  )
}

const sqlite = new SqliteLedger(join(mkdtempSync(join(tmpdir(), 'claims-')), 'ledger.sqlite'))
await measure('sqlite', sqlite, 'sq')
sqlite.close()
const pg = new Postgres(url)
await migrate(pg)
const registry = new InstanceRegistry(pg, { version: 'bench' })
await registry.start()
const ledger = new PostgresLedger(pg, registry.id)
await measure('postgres', ledger, `pg${Date.now()}`)
await ledger.close()
await registry.stop()
await pg.close()
