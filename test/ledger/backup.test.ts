/** `payments backup`: a consistent copy taken while the real service is selling, and a restore that keeps its promises. */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routeById } from '../../src/catalog'
import { SqliteLedger } from '../../src/ledger/sqlite'
import { usdToAtomic } from '../../src/core/usdc'
import { runCli } from '../../support/cli-run'
import { createPayer } from '../../support/payer'
import { startServer, type StartedServer } from '../../support/server'

const dir = mkdtempSync(join(tmpdir(), 'backup-'))
const ledger = join(dir, 'ledger.sqlite')
const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const PRICE = usdToAtomic(routeById.get('flights.summary')!.priceUsd)
const payer = createPayer()
let server: StartedServer | undefined

afterAll(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const cli = (env: Record<string, string>, ...args: string[]) => runCli(['payments', ...args], { LEDGER_PATH: ledger, ...env })

beforeAll(() => {
  // Some 25 MB of earlier sales, so that copying takes a while and the service sells meanwhile.
  const l = new SqliteLedger(ledger)
  const body = JSON.stringify({ data: 'x'.repeat(8000) })
  for (let i = 0; i < 3000; i++) {
    const key = `eip155:84532:0xold:0xpayer:${i}`
    l.claim(
      {
        key,
        network: 'eip155:84532',
        payer: '0xpayer',
        nonce: String(i),
        routeId: 'flights.summary',
        fingerprint: `old-${i}`,
        amountAtomic: '100000',
        requestId: `req_old_${i}`,
      },
      1_790_000_000,
      0,
    )
    l.complete(key, { id: `art_old_${i}`, body, expiresAt: 1_890_000_000 }, 1_790_000_001)
    l.record({
      event: 'served',
      at: 1_790_000_001,
      key,
      requestId: `req_old_${i}`,
      routeId: 'flights.summary',
      payer: '0xpayer',
      amountAtomic: '100000',
      nonce: String(i),
      network: 'eip155:84532',
      detail: 'local',
    })
  }
  l.close()
})

interface Sale {
  proof: string
  nonce: string
  body: any
}

test('a backup taken while the service sells holds every sale answered before it began, consistently; restored, it serves their artifacts and refuses their proofs for other requests', async () => {
  server = await startServer({ LEDGER_PATH: ledger })
  const url = server.url

  // The service sells, one paid request after the other, until told to stop. A 200 is sent only once
  // the payment, its artifact and its events are committed (the gate awaits the ledger's durable()).
  const sales: Sale[] = []
  let selling = true
  let twentySold!: () => void
  const twenty = new Promise<void>((r) => (twentySold = r))
  const seller = (async () => {
    while (selling && sales.length < 5000) {
      const proof = await payer.proof({ value: PRICE })
      const res = await fetch(`${url}${SUMMARY}`, { headers: { 'x402-payment': proof } })
      if (res.status !== 200) throw new Error(`paid request answered ${res.status}: ${await res.text()}`)
      sales.push({
        proof,
        nonce: JSON.parse(Buffer.from(proof, 'base64').toString()).payload.authorization.nonce.toLowerCase(),
        body: await res.json(),
      })
      if (sales.length === 20) twentySold()
    }
  })()
  await Promise.race([twenty, seller])

  const backup = join(dir, 'backups', 'ledger-1.sqlite')
  mkdirSync(join(dir, 'backups'))
  const committedBefore = sales.slice() // answered, so committed, before the backup process started
  const r = await cli({}, 'backup', backup)
  const soldDuring = sales.length - committedBefore.length
  selling = false
  await seller
  expect(r.err).toBe('')
  expect(r.code).toBe(0)
  expect(r.out).toContain(`Ledger backup written: ${backup}`)
  expect(r.out).toContain('integrity  ok')
  expect(soldDuring).toBeGreaterThan(0) // the service did write while the backup ran
  expect(readdirSync(join(dir, 'backups'))).toEqual(['ledger-1.sqlite']) // no temporary file left, no -wal beside the copy

  const copy = new Database(backup, { readonly: true })
  try {
    expect(copy.query('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }])
    const served = new Set(
      copy
        .query<{ nonce: string }, []>(`SELECT nonce FROM payments WHERE state = 'served'`)
        .all()
        .map((p) => p.nonce),
    )
    for (const s of committedBefore) expect(served.has(s.nonce)).toBe(true)
    expect(served.size).toBeGreaterThanOrEqual(3000 + committedBefore.length)
    expect(served.size).toBeLessThanOrEqual(3000 + sales.length)
    // One snapshot, not a mix of moments: every payment in it has its artifact and its served event,
    // which the service commits in the same transaction as the payment.
    expect(
      copy
        .query(
          `SELECT COUNT(*) AS n FROM payments p WHERE state = 'served' AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.id = p.artifact_id)`,
        )
        .get(),
    ).toEqual({ n: 0 })
    expect(
      copy
        .query(
          `SELECT COUNT(*) AS n FROM payments p WHERE NOT EXISTS (SELECT 1 FROM payment_events e WHERE e.payment_key = p.key AND e.event = 'served')`,
        )
        .get(),
    ).toEqual({ n: 0 })
    expect(
      copy
        .query(`SELECT COUNT(*) AS n FROM payment_events e WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.key = e.payment_key)`)
        .get(),
    ).toEqual({ n: 0 })
    const counts = copy
      .query<{ p: number; e: number; a: number }, []>(
        'SELECT (SELECT COUNT(*) FROM payments) AS p, (SELECT COUNT(*) FROM payment_events) AS e, (SELECT COUNT(*) FROM artifacts) AS a',
      )
      .get()!
    expect(r.out).toContain(`payments   ${counts.p} (served ${counts.p})`)
    expect(r.out).toContain(`events     ${counts.e}`)
    expect(r.out).toContain(`artifacts  ${counts.a}`)
  } finally {
    copy.close()
  }

  // Restore as documented: stop the service, remove the WAL files, copy the backup back, start.
  expect(await server.stop()).toBe(0)
  server = undefined
  rmSync(`${ledger}-wal`, { force: true })
  rmSync(`${ledger}-shm`, { force: true })
  copyFileSync(backup, ledger)
  server = await startServer({ LEDGER_PATH: ledger })
  for (const s of [committedBefore[0]!, committedBefore.at(-1)!]) {
    const artifact = await fetch(`${server.url}${s.body.meta.artifact_path}`)
    expect(artifact.status).toBe(200)
    expect(await artifact.json()).toEqual(s.body)
    const again = await fetch(`${server.url}${SUMMARY}`, { headers: { 'x402-payment': s.proof } })
    expect(again.status).toBe(200)
    expect(again.headers.get('x-payment-replay')).toBe('stored-result')
    const other = await fetch(`${server.url}/v1/market-data/flights/summary?destination=Osaka`, { headers: { 'x402-payment': s.proof } })
    expect(other.status).toBe(402)
    expect((await other.json()).error.code).toBe('payment_replayed')
  }
}, 180_000)

test('refuses to overwrite a file unless --force, never writes over the ledger, and leaves nothing behind on failure', async () => {
  const existing = join(dir, 'existing.sqlite')
  writeFileSync(existing, 'an older backup')
  const refused = await cli({}, 'backup', existing)
  expect(refused.code).toBe(2)
  expect(refused.err).toContain('already exists; refusing to overwrite it (add --force to replace it)')
  const forced = await cli({}, 'backup', existing, '--force')
  expect(forced.code).toBe(0)
  const db = new Database(existing, { readonly: true })
  expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
  db.close()

  expect(await cli({}, 'backup', ledger, '--force')).toMatchObject({
    code: 2,
    err: expect.stringContaining('is the payment ledger itself'),
  })
  expect(await cli({}, 'backup')).toMatchObject({ code: 2, err: expect.stringContaining('needs the FILE') })
  expect(await cli({}, 'backup', 'a.sqlite', 'b.sqlite')).toMatchObject({ code: 2, err: expect.stringContaining('takes one FILE') })
  expect(await cli({}, 'backup', join(dir, 'no-such-folder', 'x.sqlite'))).toMatchObject({
    code: 2,
    err: expect.stringContaining('does not exist'),
  })

  const junk = join(dir, 'junk', 'ledger.sqlite')
  mkdirSync(join(dir, 'junk'))
  writeFileSync(junk, 'not a database at all, but long enough to have a header of some sort')
  const failed = await cli({ LEDGER_PATH: junk }, 'backup', join(dir, 'junk', 'copy.sqlite'))
  expect(failed.code).toBe(1)
  expect(failed.err).toContain('Backup failed, nothing written to')
  expect(failed.err).not.toContain('    at ')
  expect(readdirSync(join(dir, 'junk')).filter((f) => f.includes('copy'))).toEqual([])
  expect(existsSync(join(dir, 'junk', 'copy.sqlite'))).toBe(false)
}, 120_000)
