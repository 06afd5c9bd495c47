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
import { retention } from './ledger-retention-contract'

const T = 30_000

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
  })
}

/** Another ledger reads what one committed; a binary answer comes back byte for byte; one durable() commits a turn. */
function sharedAndCommitted(backend: LedgerBackend, { fresh }: Storage): void {
  test.skipIf(!backend.sharedStorage)(
    'another ledger on the same storage reads a payment and its result once durable() resolves',
    async () => {
      const store = await fresh()
      const a = await store.open()
      expect(await a.claim(claimOf('n1'), 1000, 900)).toEqual({ status: 'claimed' })
      a.complete('n1', artifactOf('art_1'), 1001)
      await a.durable()
      const other = await store.open()
      await expectReadsServed(other, 'n1', 'art_1')
      // And the other ledger refuses the nonce to a second request.
      expect(await other.claim(claimOf('n1', { requestId: 'req-other', fingerprint: 'other' }), 1002, 900)).toMatchObject({
        status: 'taken',
        state: 'served',
        artifactId: 'art_1',
      })
    },
    T,
  )

  test(
    'a binary answer comes back byte for byte as a Uint8Array, a text answer as a string, both with their headers',
    async () => {
      const store = await fresh()
      const a = await store.open()
      const bytes = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x80, 0x0a, 0x0d, 0x00, 0xfe, 0x00])
      const headers = { 'content-type': 'application/vnd.apache.arrow.stream', 'x-dataset-version': 'spend-0123456789ab' }
      const text = '{"answer":"é € 😀","csv":"a,b\\r\\n1,2"}'
      await a.claim(claimOf('bin'), 1000, 900)
      a.complete('bin', { id: 'art_bin', body: bytes, headers, expiresAt: 10_000 }, 1001)
      await a.claim(claimOf('txt'), 1000, 900)
      a.complete('txt', { id: 'art_txt', body: text, headers: { 'content-type': 'text/csv; charset=utf-8' }, expiresAt: 10_000 }, 1001)
      await a.claim(claimOf('json'), 1000, 900)
      a.complete('json', artifactOf('art_json'), 1001)
      await a.durable()
      const reader = backend.sharedStorage ? await store.open() : a
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
    T,
  )

  test(
    'many requests completed in one turn are all committed by one durable()',
    async () => {
      const store = await fresh()
      const a = await store.open()
      const keys = Array.from({ length: 100 }, (_, i) => `k${i}`)
      const claims = await Promise.all(keys.map((k) => a.claim(claimOf(k), 1000, 900)))
      expect(claims.every((c) => c.status === 'claimed')).toBe(true)
      keys.forEach((k, i) => a.complete(k, artifactOf(`art_${i}`), 1001))
      await a.durable()
      const reader = backend.sharedStorage ? await store.open() : a
      for (const k of keys) expect((await reader.lookup(k))?.state).toBe('served')
      expect((await reader.artifact('art_99', 1002))?.body).toBe('{"answer":"art_99"}')
    },
    T,
  )
}

/** Claims: on disk before money moves, a claimed nonce refused, a released one claimed again. */
function claims(backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  test.skipIf(!backend.sharedStorage)(
    'persistClaim: once durable() resolves, another ledger on the same storage sees the claim in_progress and refuses it',
    async () => {
      const store = await fresh()
      const a = await store.open()
      expect(await a.claim(claimOf('pc'), 1000, 900)).toEqual({ status: 'claimed' })
      a.persistClaim('pc')
      await a.durable()
      expect(await store.payment('pc')).toMatchObject({ state: 'in_progress' })
      const other = await store.open()
      expect(await other.claim(claimOf('pc', { requestId: 'req-other', fingerprint: 'other' }), 1001, 900)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        fingerprint: 'fp-pc',
      })
      // Completed afterwards: one row, served.
      a.complete('pc', artifactOf('art_pc'), 1002)
      await a.durable()
      expect(await store.payment('pc')).toMatchObject({ state: 'served' })
    },
    T,
  )

  test(
    'a claimed nonce is refused to a second claim before and after the commit',
    async () => {
      const a = await freshLedger()
      expect((await a.claim(claimOf('n2'), 1000, 900)).status).toBe('claimed')
      expect(await a.claim(claimOf('n2', { fingerprint: 'other', requestId: 'req-2' }), 1000, 900)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        fingerprint: 'fp-n2',
      })
      a.complete('n2', artifactOf('art_2'), 1001)
      await a.durable()
      expect(await a.claim(claimOf('n2', { fingerprint: 'other', requestId: 'req-3' }), 1002, 900)).toMatchObject({
        status: 'taken',
        state: 'served',
        artifactId: 'art_2',
      })
    },
    T,
  )

  test(
    'a released claim may be claimed again, by the same or another request, and is not a takeover',
    async () => {
      const a = await freshLedger()
      await a.claim(claimOf('n3'), 1000, 900)
      a.release('n3', 1001)
      await a.durable()
      expect(await a.lookup('n3')).toMatchObject({ state: 'failed' })
      expect(await a.claim(claimOf('n3', { fingerprint: 'second', requestId: 'req-second' }), 1002, 900)).toEqual({ status: 'claimed' })
      expect((await a.lookup('n3'))?.fingerprint).toBe('second')
    },
    T,
  )
}

/** Takeovers, results before their commit and after they expire, events with their state change. */
function takeoverAndResults(_backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  test(
    'an in_progress claim untouched since staleBefore is taken over (takenOver), one touched since is not',
    async () => {
      const a = await freshLedger()
      expect(await a.claim(claimOf('s1'), 1000, 1000 - 61)).toEqual({ status: 'claimed' })
      expect(await a.claim(claimOf('s1', { requestId: 'r2' }), 1030, 1030 - 61)).toMatchObject({ status: 'taken', state: 'in_progress' })
      expect(await a.claim(claimOf('s1', { requestId: 'r3' }), 1100, 1100 - 61)).toEqual({ status: 'claimed', takenOver: true })
      // The nonce is now held by the new claim, as of its time: not stale again until 1100 is.
      expect(await a.claim(claimOf('s1', { requestId: 'r4' }), 1150, 1150 - 61)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
        updatedAt: 1100,
      })
    },
    T,
  )

  test(
    'lookup and artifact of unknown ids are null; a result is not served before its commit nor after it expires',
    async () => {
      const a = await freshLedger()
      expect(await a.lookup('nope')).toBeNull()
      expect(await a.artifact('art_nope', 1000)).toBeNull()
      await a.claim(claimOf('x1'), 1000, 900)
      a.complete('x1', { ...artifactOf('art_x1'), expiresAt: 2000 }, 1001)
      await a.durable()
      expect(await a.artifact('art_x1', 1999)).not.toBeNull()
      expect(await a.artifact('art_x1', 2000)).toBeNull()
    },
    T,
  )

  test(
    'expired artifacts are purged; payment rows stay',
    async () => {
      const a = await freshLedger()
      await a.claim(claimOf('n4'), 1000, 900)
      a.complete('n4', artifactOf('art_4'), 1001)
      await a.claim(claimOf('n5'), 1000, 900)
      a.complete('n5', { ...artifactOf('art_5'), expiresAt: 30_000 }, 1001)
      await a.durable()
      expect(await a.purgeExpired(20_000)).toBe(1)
      expect(await a.artifact('art_4', 1002)).toBeNull()
      expect((await a.artifact('art_5', 1002))?.body).toBe('{"answer":"art_5"}')
      expect((await a.lookup('n4'))?.state).toBe('served')
      expect(await a.purgeExpired(20_000)).toBe(0)
    },
    T,
  )

  test(
    'events are committed with the state change they accompany',
    async () => {
      const store = await fresh()
      const a = await store.open()
      await a.claim(claimOf('e1'), 1000, 900)
      a.record(eventOf('e1', 'verified'))
      a.complete('e1', artifactOf('art_e1'), 1001, { kind: 'settled', txHash: '0xfeed' })
      a.record({ ...eventOf('e1', 'settled', 1001), txHash: '0xfeed' })
      await a.durable()
      expect(await store.events('e1')).toEqual([
        { event: 'verified', tx_hash: null },
        { event: 'settled', tx_hash: '0xfeed' },
      ])
      expect(await store.payment('e1')).toEqual({ state: 'served', settlement: 'settled', tx_hash: '0xfeed' })
    },
    T,
  )
}

/** A pending payment keeps its result back; resolved as failed, it frees the nonce. */
function pendingKeptBack(_backend: LedgerBackend, { freshLedger }: Storage): void {
  test(
    'a pending payment keeps its result back until resolved settled; resolving twice changes nothing',
    async () => {
      const a = await freshLedger()
      await a.claim(claimOf('p1', { validBefore: '5000' }), 1000, 900)
      a.park('p1', artifactOf('art_p1'), 1001)
      expect(await a.artifact('art_p1', 1002)).toBeNull() // before the commit
      await a.durable()
      expect(await a.artifact('art_p1', 1002)).toBeNull() // after it
      expect((await a.pending(1002)).map((p) => [p.claim.key, p.claim.validBefore, p.state])).toEqual([['p1', '5000', 'pending']])
      expect(await a.claim(claimOf('p1', { fingerprint: 'other', requestId: 'req-other' }), 1003, 900)).toMatchObject({
        status: 'taken',
        state: 'pending',
      })
      expect(await a.resolve('p1', { settled: true, txHash: '0xabc' }, 1004)).toBe(true)
      expect(await a.resolve('p1', { settled: false }, 1005)).toBe(false)
      await a.durable()
      expect((await a.artifact('art_p1', 1006))?.body).toBe('{"answer":"art_p1"}')
      expect(await a.lookup('p1')).toMatchObject({ state: 'served', txHash: '0xabc' })
      expect(await a.pending(1006)).toEqual([])
    },
    T,
  )

  test(
    'a pending payment resolved as failed frees the nonce and never releases its result',
    async () => {
      const a = await freshLedger()
      await a.claim(claimOf('p2'), 1000, 900)
      a.park('p2', artifactOf('art_p2'), 1001)
      expect(await a.resolve('p2', { settled: false }, 1002)).toBe(true)
      await a.durable()
      expect(await a.artifact('art_p2', 1003)).toBeNull()
      expect(await a.claim(claimOf('p2', { requestId: 'req-again' }), 1004, 900)).toEqual({ status: 'claimed' })
    },
    T,
  )
}

/** Which payments are pending, and whom resolve applies to. */
function pendingFound(_backend: LedgerBackend, { freshLedger }: Storage): void {
  test(
    'pending(now) lists pending payments and in_progress claims dead for more than 60 s past validBefore, not live ones',
    async () => {
      const a = await freshLedger()
      const now = 10_000
      await a.claim(claimOf('parked', { validBefore: String(now + 300) }), now - 10, now - 100)
      a.park('parked', artifactOf('art_parked'), now - 5, '0xt1')
      await a.claim(claimOf('dead', { validBefore: String(now - 61) }), now - 200, now - 300)
      await a.claim(claimOf('dying', { validBefore: String(now - 59) }), now - 200, now - 300) // within the 60 s grace
      await a.claim(claimOf('live', { validBefore: String(now + 300) }), now - 1, now - 100)
      await a.claim(claimOf('novb'), now - 500, now - 600) // no validBefore: never counted dead
      await a.claim(claimOf('done', { validBefore: String(now - 500) }), now - 600, now - 700)
      a.complete('done', artifactOf('art_done'), now - 590)
      await a.durable()
      const open = (await a.pending(now))
        .map((p) => ({ key: p.claim.key, state: p.state, txHash: p.txHash }))
        .sort((x, y) => x.key.localeCompare(y.key))
      expect(open).toEqual([
        { key: 'dead', state: 'in_progress', txHash: null },
        { key: 'parked', state: 'pending', txHash: '0xt1' },
      ])
      const dead = (await a.pending(now)).find((p) => p.claim.key === 'dead')!
      expect(dead.claim).toEqual(claimOf('dead', { validBefore: String(now - 61) }))
      expect(dead.updatedAt).toBe(now - 200)
    },
    T,
  )

  test(
    'resolve from in_progress applies only to the request id given, and never to a pending payment by default state',
    async () => {
      const a = await freshLedger()
      const now = 10_000
      await a.claim(claimOf('d1', { validBefore: String(now - 100) }), now - 200, now - 300)
      expect(await a.resolve('d1', { settled: false }, now)).toBe(false) // default: from pending only
      expect(await a.resolve('d1', { settled: false }, now, { state: 'in_progress', requestId: 'req-someone-else' })).toBe(false)
      expect(await a.resolve('d1', { settled: false }, now, { state: 'pending' })).toBe(false)
      expect(await a.lookup('d1')).toMatchObject({ state: 'in_progress' })
      expect(await a.resolve('d1', { settled: false }, now, { state: 'in_progress', requestId: 'req-d1' })).toBe(true)
      await a.durable()
      expect(await a.lookup('d1')).toMatchObject({ state: 'failed', updatedAt: now })
      expect(await a.pending(now)).toEqual([])

      await a.claim(claimOf('d2', { validBefore: String(now - 100) }), now - 200, now - 300)
      expect(await a.resolve('d2', { settled: true, txHash: '0xd2' }, now, { state: 'in_progress' })).toBe(true) // any request id
      await a.durable()
      expect(await a.lookup('d2')).toMatchObject({ state: 'served', txHash: '0xd2' })
    },
    T,
  )
}
