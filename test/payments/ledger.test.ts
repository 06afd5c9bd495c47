import { afterEach, expect, test } from 'bun:test'
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
  expect(a.claim(claim('n1'), 1000, 900)).toEqual({ status: 'claimed' })
  a.complete('n1', artifact('art_1'), 1001)
  const other = ledgerAt(path)
  expect(other.lookup('n1')).toBeNull() // not committed yet: group commit at the end of this turn
  await a.durable()
  expect(other.lookup('n1')).toEqual({ status: 'taken', fingerprint: 'fp-n1', state: 'served', artifactId: 'art_1', updatedAt: 1001, txHash: null })
  expect(other.artifact('art_1', 1002)?.body).toBe('{"answer":"art_1"}')
})

test('many requests of one turn share one commit, and each is recorded', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.sqlite')
  const a = ledgerAt(path)
  for (let i = 0; i < 100; i++) {
    a.claim(claim(`k${i}`), 1000, 900)
    a.complete(`k${i}`, artifact(`art_${i}`), 1001)
  }
  await a.durable()
  const other = ledgerAt(path)
  for (let i = 0; i < 100; i++) expect(other.lookup(`k${i}`)?.state).toBe('served')
})

test('a claimed nonce is refused to a second claim before and after the commit', async () => {
  const a = ledgerAt(':memory:')
  expect(a.claim(claim('n2'), 1000, 900).status).toBe('claimed')
  expect(a.claim({ ...claim('n2'), fingerprint: 'other' }, 1000, 900)).toMatchObject({ status: 'taken', state: 'in_progress', fingerprint: 'fp-n2' })
  a.complete('n2', artifact('art_2'), 1001)
  await a.durable()
  expect(a.claim({ ...claim('n2'), fingerprint: 'other' }, 1002, 900)).toMatchObject({ status: 'taken', state: 'served', artifactId: 'art_2' })
})

test('a released claim may be claimed again, by the same or another request', async () => {
  const a = ledgerAt(':memory:')
  a.claim(claim('n3'), 1000, 900)
  a.release('n3', 1001)
  await a.durable()
  expect(a.claim({ ...claim('n3'), fingerprint: 'second' }, 1002, 900).status).toBe('claimed')
  expect(a.lookup('n3')?.fingerprint).toBe('second')
})

test('expired artifacts are purged; payment rows stay', async () => {
  const a = ledgerAt(':memory:')
  a.claim(claim('n4'), 1000, 900)
  a.complete('n4', artifact('art_4'), 1001)
  await a.durable()
  expect(a.purgeExpired(20_000)).toBe(1)
  expect(a.artifact('art_4', 1002)).toBeNull()
  expect(a.lookup('n4')?.state).toBe('served')
})
