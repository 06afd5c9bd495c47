/**
 * What every PaymentLedger must do, whatever stores it: registered once per backend (SQLite in
 * test/ledger/sqlite.test.ts, PostgreSQL in test/ledger/postgres.test.ts). Each test gets fresh, empty storage.
 *
 * The backends differ in when a claim becomes visible elsewhere (SQLite: at the next commit; PostgreSQL:
 * before `claim` resolves), so these tests read another ledger only after `durable()`.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import type { PaymentLedger } from '../src/ledger/contract'
import { artifactOf, claimOf, eventOf, expectReadsServed, type LedgerBackend, type LedgerStore, type Storage } from './ledger-fixtures'
import { paymentIds, signIns } from './ledger-x402-extensions-contract'
import { retention } from './ledger-retention-contract'

const TIMEOUT_MS = 30_000

export function ledgerContract(backend: LedgerBackend): void {
  describe(`PaymentLedger contract: ${backend.name}`, () => {
    const stores: LedgerStore[] = []
    const fresh = async () => {
      const store = await backend.fresh()
      stores.push(store)
      return store
    }
    const storage: Storage = { fresh, freshLedger: async () => (await fresh()).open() }
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.dispose()
    })
    sharedAndCommitted(backend, storage)
    claims(backend, storage)
    takeoverAndResults(backend, storage)
    pendingKeptBack(backend, storage)
    pendingFound(backend, storage)
    retention(backend, storage)
    paymentIds(backend, storage)
    signIns(backend, storage)
  })
}

/** Another ledger reads what one committed; a binary answer comes back byte for byte; one durable() commits a turn. */
function sharedAndCommitted(backend: LedgerBackend, { fresh }: Storage): void {
  test.skipIf(!backend.sharedStorage)(
    'another ledger on the same storage reads a payment and its result once durable() resolves',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      expect(await ledger.claim(claimOf('n1'), 1000, 900)).toEqual({ status: 'claimed' })
      ledger.complete('n1', artifactOf('art_1'), 1001)
      await ledger.durable()
      const other = await store.open()
      await expectReadsServed(other, 'n1', 'art_1')
      // And the other ledger refuses the nonce to a second request.
      expect(await other.claim(claimOf('n1', { requestId: 'req-other', fingerprint: 'other' }), 1002, 900)).toMatchObject({
        status: 'taken',
        state: 'served',
        artifactId: 'art_1',
      })
    },
    TIMEOUT_MS,
  )

  test(
    'a binary answer comes back byte for byte as a Uint8Array, a text answer as a string, both with their headers',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      const bytes = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x80, 0x0a, 0x0d, 0x00, 0xfe, 0x00])
      const headers = { 'content-type': 'application/vnd.apache.arrow.stream', 'x-dataset-version': 'spend-0123456789ab' }
      const text = '{"answer":"é € 😀","csv":"a,b\\r\\n1,2"}'
      await ledger.claim(claimOf('bin'), 1000, 900)
      ledger.complete('bin', { id: 'art_bin', body: bytes, headers, expiresAt: 10_000 }, 1001)
      await ledger.claim(claimOf('txt'), 1000, 900)
      ledger.complete('txt', { id: 'art_txt', body: text, headers: { 'content-type': 'text/csv; charset=utf-8' }, expiresAt: 10_000 }, 1001)
      await ledger.claim(claimOf('json'), 1000, 900)
      ledger.complete('json', artifactOf('art_json'), 1001)
      await ledger.durable()
      const reader = backend.sharedStorage ? await store.open() : ledger
      const stored = (await reader.artifact('art_bin', 1002))!
      expect(stored.body).toBeInstanceOf(Uint8Array)
      expect([...(stored.body as Uint8Array)]).toEqual([...bytes])
      expect(stored.headers).toEqual(headers)
      expect(await reader.artifact('art_txt', 1002)).toEqual({
        id: 'art_txt',
        body: text,
        headers: { 'content-type': 'text/csv; charset=utf-8' },
        expiresAt: 10_000,
      })
      expect(await reader.artifact('art_json', 1002)).toEqual({ id: 'art_json', body: '{"answer":"art_json"}', expiresAt: 10_000 })
    },
    TIMEOUT_MS,
  )

  test(
    'many requests completed in one turn are all committed by one durable()',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      const keys = Array.from({ length: 100 }, (_, i) => `k${i}`)
      const claims = await Promise.all(keys.map((k) => ledger.claim(claimOf(k), 1000, 900)))
      expect(claims.every((c) => c.status === 'claimed')).toBe(true)
      keys.forEach((k, i) => ledger.complete(k, artifactOf(`art_${i}`), 1001))
      await ledger.durable()
      const reader = backend.sharedStorage ? await store.open() : ledger
      for (const k of keys) expect((await reader.lookup(k))?.state).toBe('served')
      expect((await reader.artifact('art_99', 1002))?.body).toBe('{"answer":"art_99"}')
    },
    TIMEOUT_MS,
  )
}

/** Claims: on disk before money moves, a claimed nonce refused, a released one claimed again. */
function claims(backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  test.skipIf(!backend.sharedStorage)(
    'persistClaim: once durable() resolves, another ledger on the same storage sees the claim in_progress and refuses it',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      expect(await ledger.claim(claimOf('pc'), 1000, 900)).toEqual({ status: 'claimed' })
      ledger.persistClaim('pc')
      await ledger.durable()
      expect(await store.payment('pc')).toMatchObject({ state: 'in_progress' })
      const other = await store.open()
      expect(await other.claim(claimOf('pc', { requestId: 'req-other', fingerprint: 'other' }), 1001, 900)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        fingerprint: 'fp-pc',
      })
      // Completed afterwards: one row, served.
      ledger.complete('pc', artifactOf('art_pc'), 1002)
      await ledger.durable()
      expect(await store.payment('pc')).toMatchObject({ state: 'served' })
    },
    TIMEOUT_MS,
  )

  test(
    'a claimed nonce is refused to a second claim before and after the commit',
    async () => {
      const ledger = await freshLedger()
      expect((await ledger.claim(claimOf('n2'), 1000, 900)).status).toBe('claimed')
      expect(await ledger.claim(claimOf('n2', { fingerprint: 'other', requestId: 'req-2' }), 1000, 900)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        fingerprint: 'fp-n2',
      })
      ledger.complete('n2', artifactOf('art_2'), 1001)
      await ledger.durable()
      expect(await ledger.claim(claimOf('n2', { fingerprint: 'other', requestId: 'req-3' }), 1002, 900)).toMatchObject({
        status: 'taken',
        state: 'served',
        artifactId: 'art_2',
      })
    },
    TIMEOUT_MS,
  )

  test(
    'a released claim may be claimed again, by the same or another request, and is not a takeover',
    async () => {
      const ledger = await freshLedger()
      await ledger.claim(claimOf('n3'), 1000, 900)
      ledger.release('n3', 1001)
      await ledger.durable()
      expect(await ledger.lookup('n3')).toMatchObject({ state: 'failed' })
      expect(await ledger.claim(claimOf('n3', { fingerprint: 'second', requestId: 'req-second' }), 1002, 900)).toEqual({
        status: 'claimed',
      })
      expect((await ledger.lookup('n3'))?.fingerprint).toBe('second')
    },
    TIMEOUT_MS,
  )
}

/** Takeovers, results before their commit and after they expire, events with their state change. */
function takeoverAndResults(_backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  test(
    'an in_progress claim untouched since staleBefore is taken over (takenOver), one touched since is not',
    async () => {
      const ledger = await freshLedger()
      expect(await ledger.claim(claimOf('s1'), 1000, 1000 - 61)).toEqual({ status: 'claimed' })
      expect(await ledger.claim(claimOf('s1', { requestId: 'r2' }), 1030, 1030 - 61)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
      })
      expect(await ledger.claim(claimOf('s1', { requestId: 'r3' }), 1100, 1100 - 61)).toEqual({ status: 'claimed', takenOver: true })
      // The nonce is now held by the new claim, as of its time: not stale again until 1100 is.
      expect(await ledger.claim(claimOf('s1', { requestId: 'r4' }), 1150, 1150 - 61)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        updatedAt: 1100,
      })
    },
    TIMEOUT_MS,
  )

  test(
    'lookup and artifact of unknown ids are null; a result is not served before its commit nor after it expires',
    async () => {
      const ledger = await freshLedger()
      expect(await ledger.lookup('nope')).toBeNull()
      expect(await ledger.artifact('art_nope', 1000)).toBeNull()
      await ledger.claim(claimOf('x1'), 1000, 900)
      ledger.complete('x1', { ...artifactOf('art_x1'), expiresAt: 2000 }, 1001)
      await ledger.durable()
      expect(await ledger.artifact('art_x1', 1999)).not.toBeNull()
      expect(await ledger.artifact('art_x1', 2000)).toBeNull()
    },
    TIMEOUT_MS,
  )

  test(
    'expired artifacts are purged; payment rows stay',
    async () => {
      const ledger = await freshLedger()
      await ledger.claim(claimOf('n4'), 1000, 900)
      ledger.complete('n4', artifactOf('art_4'), 1001)
      await ledger.claim(claimOf('n5'), 1000, 900)
      ledger.complete('n5', { ...artifactOf('art_5'), expiresAt: 30_000 }, 1001)
      await ledger.durable()
      expect(await ledger.purgeExpired(20_000)).toBe(1)
      expect(await ledger.artifact('art_4', 1002)).toBeNull()
      expect((await ledger.artifact('art_5', 1002))?.body).toBe('{"answer":"art_5"}')
      expect((await ledger.lookup('n4'))?.state).toBe('served')
      expect(await ledger.purgeExpired(20_000)).toBe(0)
    },
    TIMEOUT_MS,
  )

  test(
    'events are committed with the state change they accompany',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      await ledger.claim(claimOf('e1'), 1000, 900)
      ledger.record(eventOf('e1', 'verified'))
      ledger.complete('e1', artifactOf('art_e1'), 1001, { kind: 'settled', txHash: '0xfeed' })
      ledger.record({ ...eventOf('e1', 'settled', 1001), txHash: '0xfeed' })
      await ledger.durable()
      expect(await store.events('e1')).toEqual([
        { event: 'verified', tx_hash: null },
        { event: 'settled', tx_hash: '0xfeed' },
      ])
      expect(await store.payment('e1')).toEqual({ state: 'served', settlement: 'settled', tx_hash: '0xfeed' })
    },
    TIMEOUT_MS,
  )
}

/** A pending payment keeps its result back; resolved as failed, it frees the nonce. */
function pendingKeptBack(_backend: LedgerBackend, { freshLedger }: Storage): void {
  test(
    'a pending payment keeps its result back until resolved settled; resolving twice changes nothing',
    async () => {
      const ledger = await freshLedger()
      await ledger.claim(claimOf('p1', { validBefore: '5000' }), 1000, 900)
      ledger.park('p1', artifactOf('art_p1'), 1001)
      expect(await ledger.artifact('art_p1', 1002)).toBeNull() // before the commit
      await ledger.durable()
      expect(await ledger.artifact('art_p1', 1002)).toBeNull() // after it
      expect((await ledger.pending(1002)).map((p) => [p.claim.key, p.claim.validBefore, p.state])).toEqual([['p1', '5000', 'pending']])
      expect(await ledger.claim(claimOf('p1', { fingerprint: 'other', requestId: 'req-other' }), 1003, 900)).toMatchObject({
        status: 'taken',
        state: 'pending',
      })
      expect(await ledger.resolve('p1', { settled: true, txHash: '0xabc' }, 1004)).toBe(true)
      expect(await ledger.resolve('p1', { settled: false }, 1005)).toBe(false)
      await ledger.durable()
      expect((await ledger.artifact('art_p1', 1006))?.body).toBe('{"answer":"art_p1"}')
      expect(await ledger.lookup('p1')).toMatchObject({ state: 'served', txHash: '0xabc' })
      expect(await ledger.pending(1006)).toEqual([])
    },
    TIMEOUT_MS,
  )

  test(
    'a pending payment resolved as failed frees the nonce and never releases its result',
    async () => {
      const ledger = await freshLedger()
      await ledger.claim(claimOf('p2'), 1000, 900)
      ledger.park('p2', artifactOf('art_p2'), 1001)
      expect(await ledger.resolve('p2', { settled: false }, 1002)).toBe(true)
      await ledger.durable()
      expect(await ledger.artifact('art_p2', 1003)).toBeNull()
      expect(await ledger.claim(claimOf('p2', { requestId: 'req-again' }), 1004, 900)).toEqual({ status: 'claimed' })
    },
    TIMEOUT_MS,
  )
}

/** Which payments are pending, and whom resolve applies to. */
function pendingFound(_backend: LedgerBackend, { freshLedger }: Storage): void {
  test(
    'pending(now) lists pending payments and in_progress claims dead for more than 60 s past validBefore, not live ones',
    async () => {
      const ledger = await freshLedger()
      const now = 10_000
      await ledger.claim(claimOf('parked', { validBefore: String(now + 300) }), now - 10, now - 100)
      ledger.park('parked', artifactOf('art_parked'), now - 5, '0xt1')
      await ledger.claim(claimOf('dead', { validBefore: String(now - 61) }), now - 200, now - 300)
      await ledger.claim(claimOf('dying', { validBefore: String(now - 59) }), now - 200, now - 300) // within the 60 s grace
      await ledger.claim(claimOf('live', { validBefore: String(now + 300) }), now - 1, now - 100)
      await ledger.claim(claimOf('novb'), now - 500, now - 600) // no validBefore: never counted dead
      await ledger.claim(claimOf('done', { validBefore: String(now - 500) }), now - 600, now - 700)
      ledger.complete('done', artifactOf('art_done'), now - 590)
      await ledger.durable()
      const open = (await ledger.pending(now))
        .map((p) => ({ key: p.claim.key, state: p.state, txHash: p.txHash }))
        .sort((x, y) => x.key.localeCompare(y.key))
      expect(open).toEqual([
        { key: 'dead', state: 'in_progress', txHash: null },
        { key: 'parked', state: 'pending', txHash: '0xt1' },
      ])
      const dead = (await ledger.pending(now)).find((p) => p.claim.key === 'dead')!
      expect(dead.claim).toEqual(claimOf('dead', { validBefore: String(now - 61) }))
      expect(dead.updatedAt).toBe(now - 200)
    },
    TIMEOUT_MS,
  )

  test(
    'resolve from in_progress applies only to the request id given, and never to a pending payment by default state',
    async () => {
      const ledger = await freshLedger()
      const now = 10_000
      await ledger.claim(claimOf('d1', { validBefore: String(now - 100) }), now - 200, now - 300)
      expect(await ledger.resolve('d1', { settled: false }, now)).toBe(false) // default: from pending only
      expect(await ledger.resolve('d1', { settled: false }, now, { state: 'in_progress', requestId: 'req-someone-else' })).toBe(false)
      expect(await ledger.resolve('d1', { settled: false }, now, { state: 'pending' })).toBe(false)
      expect(await ledger.lookup('d1')).toMatchObject({ state: 'in_progress' })
      expect(await ledger.resolve('d1', { settled: false }, now, { state: 'in_progress', requestId: 'req-d1' })).toBe(true)
      await ledger.durable()
      expect(await ledger.lookup('d1')).toMatchObject({ state: 'failed', updatedAt: now })
      expect(await ledger.pending(now)).toEqual([])

      await ledger.claim(claimOf('d2', { validBefore: String(now - 100) }), now - 200, now - 300)
      expect(await ledger.resolve('d2', { settled: true, txHash: '0xd2' }, now, { state: 'in_progress' })).toBe(true) // any request id
      await ledger.durable()
      expect(await ledger.lookup('d2')).toMatchObject({ state: 'served', txHash: '0xd2' })
    },
    TIMEOUT_MS,
  )
}
