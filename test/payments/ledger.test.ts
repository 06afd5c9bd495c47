import { afterEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteLedger, type PaymentClaim } from '../../src/payments/ledger'

const open: SqliteLedger[] = []
const ledgerAt = (path: string) => {
  const l = new SqliteLedger(path)
  open.push(l)
  return l
}
afterEach(() => {
  for (const l of open.splice(0)) l.close()
})

const claim = (key: string): PaymentClaim => ({
  key, network: 'eip155:84532', payer: '0xabc', nonce: `0x${key}`, routeId: 'flights.summary', fingerprint: `fp-${key}`, amountAtomic: '100000', requestId: `req-${key}`,
})
const artifact = (id: string) => ({ id, body: `{"answer":"${id}"}`, expiresAt: 10_000 })

test('a payment is on disk, readable by another process, once durable() resolves', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.sqlite')
  const a = ledgerAt(path)
  expect(await a.claim(claim('n1'), 1000, 900)).toEqual({ status: 'claimed' })
  a.complete('n1', artifact('art_1'), 1001)
  const other = ledgerAt(path)
  expect(await other.lookup('n1')).toBeNull() // not committed yet: group commit at the end of this turn
  await a.durable()
  expect(await other.lookup('n1')).toEqual({ status: 'taken', fingerprint: 'fp-n1', state: 'served', artifactId: 'art_1', updatedAt: 1001, txHash: null })
  expect((await other.artifact('art_1', 1002))?.body).toBe('{"answer":"art_1"}')
})

test('an Arrow answer is stored byte for byte with its headers, and a ledger of the old layout gains the headers column', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.sqlite')
  // A ledger file from before CSV and Arrow answers: its artifacts table has no headers column.
  const old = new Database(path)
  old.exec('CREATE TABLE artifacts (id TEXT PRIMARY KEY, payment_key TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)')
  old.close()
  const a = ledgerAt(path)
  const bytes = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x80, 0x0a, 0x0d, 0x00])
  const headers = { 'content-type': 'application/vnd.apache.arrow.stream', 'x-dataset-version': 'spend-0123456789ab' }
  await a.claim(claim('bin'), 1000, 900)
  a.complete('bin', { id: 'art_bin', body: bytes, headers, expiresAt: 10_000 }, 1001)
  await a.durable()
  const stored = (await ledgerAt(path).artifact('art_bin', 1002))!
  expect(stored.body).toBeInstanceOf(Uint8Array)
  expect([...(stored.body as Uint8Array)]).toEqual([...bytes])
  expect(stored.headers).toEqual(headers)
  await a.claim(claim('json'), 1000, 900)
  a.complete('json', artifact('art_json'), 1001)
  await a.durable()
  expect(await ledgerAt(path).artifact('art_json', 1002)).toEqual({ id: 'art_json', body: '{"answer":"art_json"}', expiresAt: 10_000 })
})

test('many requests of one turn share one commit, and each is recorded', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.sqlite')
  const a = ledgerAt(path)
  for (let i = 0; i < 100; i++) {
    await a.claim(claim(`k${i}`), 1000, 900)
    a.complete(`k${i}`, artifact(`art_${i}`), 1001)
  }
  await a.durable()
  const other = ledgerAt(path)
  for (let i = 0; i < 100; i++) expect((await other.lookup(`k${i}`))?.state).toBe('served')
})

test('a claimed nonce is refused to a second claim before and after the commit', async () => {
  const a = ledgerAt(':memory:')
  expect((await a.claim(claim('n2'), 1000, 900)).status).toBe('claimed')
  expect(await a.claim({ ...claim('n2'), fingerprint: 'other' }, 1000, 900)).toMatchObject({ status: 'taken', state: 'in_progress', fingerprint: 'fp-n2' })
  a.complete('n2', artifact('art_2'), 1001)
  await a.durable()
  expect(await a.claim({ ...claim('n2'), fingerprint: 'other' }, 1002, 900)).toMatchObject({ status: 'taken', state: 'served', artifactId: 'art_2' })
})

test('a released claim may be claimed again, by the same or another request', async () => {
  const a = ledgerAt(':memory:')
  await a.claim(claim('n3'), 1000, 900)
  a.release('n3', 1001)
  await a.durable()
  expect((await a.claim({ ...claim('n3'), fingerprint: 'second' }, 1002, 900)).status).toBe('claimed')
  expect((await a.lookup('n3'))?.fingerprint).toBe('second')
})

test('expired artifacts are purged; payment rows stay', async () => {
  const a = ledgerAt(':memory:')
  await a.claim(claim('n4'), 1000, 900)
  a.complete('n4', artifact('art_4'), 1001)
  await a.durable()
  expect(await a.purgeExpired(20_000)).toBe(1)
  expect(await a.artifact('art_4', 1002)).toBeNull()
  expect((await a.lookup('n4'))?.state).toBe('served')
})

const event = (key: string, kind: import('../../src/payments/ledger').PaymentEventKind, at = 1000) => ({
  event: kind, at, key, requestId: `req-${key}`, routeId: 'flights.summary', payer: '0xabc', amountAtomic: '100000', nonce: `0x${key}`, network: 'eip155:84532',
})

test('events are committed with the state change they accompany', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.sqlite')
  const a = ledgerAt(path)
  await a.claim(claim('e1'), 1000, 900)
  a.record(event('e1', 'verified'))
  a.complete('e1', artifact('art_e1'), 1001, { kind: 'settled', txHash: '0xfeed' })
  a.record({ ...event('e1', 'settled', 1001), txHash: '0xfeed' })
  await a.durable()
  const db = (ledgerAt(path) as unknown as { db: import('bun:sqlite').Database }).db
  expect(db.query('SELECT event, tx_hash FROM payment_events WHERE payment_key = ? ORDER BY seq').all('e1')).toEqual([{ event: 'verified', tx_hash: null }, { event: 'settled', tx_hash: '0xfeed' }])
  expect(db.query('SELECT state, settlement, tx_hash FROM payments WHERE key = ?').get('e1')).toEqual({ state: 'served', settlement: 'settled', tx_hash: '0xfeed' })
})

test('a pending payment keeps its result back until resolved settled; resolving twice changes nothing', async () => {
  const a = ledgerAt(':memory:')
  await a.claim({ ...claim('p1'), validBefore: '5000' }, 1000, 900)
  a.park('p1', artifact('art_p1'), 1001)
  expect(await a.artifact('art_p1', 1002)).toBeNull() // before the commit
  await a.durable()
  expect(await a.artifact('art_p1', 1002)).toBeNull() // after it
  expect((await a.pending(1002)).map((p) => [p.claim.key, p.claim.validBefore])).toEqual([['p1', '5000']])
  expect(await a.claim({ ...claim('p1'), fingerprint: 'other' }, 1003, 900)).toMatchObject({ status: 'taken', state: 'pending' })
  expect(await a.resolve('p1', { settled: true, txHash: '0xabc' }, 1004)).toBe(true)
  expect(await a.resolve('p1', { settled: false }, 1005)).toBe(false)
  await a.durable()
  expect((await a.artifact('art_p1', 1006))?.body).toBe('{"answer":"art_p1"}')
  expect(await a.lookup('p1')).toMatchObject({ state: 'served', txHash: '0xabc' })
  expect(await a.pending(1006)).toEqual([])
})

test('a pending payment resolved as failed frees the nonce and never releases its result', async () => {
  const a = ledgerAt(':memory:')
  await a.claim(claim('p2'), 1000, 900)
  a.park('p2', artifact('art_p2'), 1001)
  await a.resolve('p2', { settled: false }, 1002)
  await a.durable()
  expect(await a.artifact('art_p2', 1003)).toBeNull()
  expect((await a.claim(claim('p2'), 1004, 900)).status).toBe('claimed')
})

test('a ledger file of the first release (no settlement columns, no events table) is upgraded on open', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'old.sqlite')
  const { Database } = await import('bun:sqlite')
  const old = new Database(path)
  old.exec(`CREATE TABLE payments (key TEXT PRIMARY KEY, network TEXT NOT NULL, payer TEXT NOT NULL, nonce TEXT NOT NULL, route TEXT NOT NULL,
    fingerprint TEXT NOT NULL, amount_atomic TEXT NOT NULL, request_id TEXT NOT NULL, state TEXT NOT NULL, artifact_id TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID`)
  old.exec(`INSERT INTO payments VALUES ('o1', 'eip155:84532', '0xabc', '0x01', 'spend.months', 'f', '30000', 'r1', 'served', NULL, 900, 900)`)
  old.close()
  const a = ledgerAt(path)
  expect(await a.lookup('o1')).toMatchObject({ state: 'served', txHash: null })
  await a.claim(claim('n5'), 1000, 900)
  a.record(event('n5', 'verified'))
  await a.durable()
  expect((await a.lookup('n5'))?.state).toBe('in_progress')
})
