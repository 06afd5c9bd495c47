/**
 * x402's extensions in the ledger, for every backend (registered by ledger-contract.ts).
 * payment-identifier: per payer, an id names one payload while its payment is not failed; another
 * payload under it takes nothing (`id_conflict`), before or after the commit, on this ledger or another
 * one on the same storage. sign-in-with-x: the answer a payer bought, and single-use challenge nonces.
 */
import { expect, test } from 'bun:test'
import { artifactOf, claimOf, type LedgerBackend, type Storage } from './ledger-fixtures'

const TIMEOUT_MS = 30_000
const ID = 'pay_0123456789abcdef0123456789abcdef'
/** A claim of `key` carrying the id, for the payload whose digest is `digest`. */
const withId = (key: string, digest: string, more: Parameters<typeof claimOf>[1] = {}) =>
  claimOf(key, { paymentId: ID, payloadDigest: digest, ...more })

export function paymentIds(backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  test(
    'payment id: another payload under the id takes nothing; the same payload is the nonce held as before; another payer has ids of its own',
    async () => {
      const ledger = await freshLedger()
      expect(await ledger.claim(withId('p1', 'digest-1'), 1000, 900)).toEqual({ status: 'claimed' })
      // Another nonce (another payload) under the same id: refused, and nothing is held for it.
      expect(await ledger.claim(withId('p2', 'digest-2'), 1000, 900)).toEqual({ status: 'id_conflict' })
      expect(await ledger.lookup('p2')).toBeNull()
      // The same nonce signed again (another signature, so another payload) under the id: refused too.
      expect(await ledger.claim(withId('p1', 'digest-1b'), 1000, 900)).toEqual({ status: 'id_conflict' })
      // The same payload again: the nonce is held, as for any retry.
      expect(await ledger.claim(withId('p1', 'digest-1', { requestId: 'req-retry' }), 1000, 900)).toMatchObject({
        status: 'taken',
        state: 'in_progress',
      })
      // Ids are the payer's own: another payer's id of the same text is free.
      expect(await ledger.claim(withId('p3', 'digest-3', { payer: '0xdef' }), 1000, 900)).toEqual({ status: 'claimed' })
      // Served and committed, the binding holds from the stored row.
      ledger.complete('p1', artifactOf('art_p1'), 1001)
      await ledger.durable()
      expect(await ledger.claim(withId('p4', 'digest-4'), 1002, 900)).toEqual({ status: 'id_conflict' })
      expect(await ledger.claim(withId('p1', 'digest-1'), 1002, 900)).toMatchObject({ status: 'taken', state: 'served' })
    },
    TIMEOUT_MS,
  )

  test(
    'payment id: a failed payment frees its id (nothing was charged), and the new payload then holds it',
    async () => {
      const ledger = await freshLedger()
      expect(await ledger.claim(withId('f1', 'digest-1'), 1000, 900)).toEqual({ status: 'claimed' })
      ledger.release('f1', 1001)
      await ledger.durable()
      expect(await ledger.claim(withId('f2', 'digest-2'), 1002, 900)).toEqual({ status: 'claimed' })
      // The first payload sent again now conflicts: the id names the second.
      expect(await ledger.claim(withId('f1', 'digest-1'), 1003, 900)).toEqual({ status: 'id_conflict' })
    },
    TIMEOUT_MS,
  )

  test.skipIf(!backend.sharedStorage)(
    'payment id: two ledgers on one storage (two instances): the id bound on one refuses another payload on the other',
    async () => {
      const store = await fresh()
      const [one, two] = [await store.open(), await store.open()]
      expect(await one.claim(withId('s1', 'digest-1'), 1000, 900)).toEqual({ status: 'claimed' })
      one.persistClaim('s1')
      await one.durable()
      expect(await two.claim(withId('s2', 'digest-2'), 1000, 900)).toEqual({ status: 'id_conflict' })
      expect(await store.payment('s2')).toBeNull()
    },
    TIMEOUT_MS,
  )
}

/** What a sign-in reads and spends (x402's sign-in-with-x): the answer a payer bought for a request, and single-use nonces. */
export function signIns(backend: LedgerBackend, { fresh, freshLedger }: Storage): void {
  const bought = (id: string, payer: string, fingerprint: string) => ({ ...artifactOf(id), buyer: { payer, fingerprint } })
  test(
    "sign-in: the answer a payer bought for a request, while it is kept and its payment served; nobody else's, no other request's",
    async () => {
      const ledger = await freshLedger()
      await ledger.claim(claimOf('b1'), 1000, 900)
      ledger.complete('b1', bought('art_b1', '0xabc', 'fp-b1'), 1001)
      await ledger.claim(claimOf('b2', { fingerprint: 'fp-b2' }), 1000, 900)
      ledger.park('b2', bought('art_b2', '0xabc', 'fp-b2'), 1001) // settling: kept back
      await ledger.durable()
      expect((await ledger.boughtAnswer('0xabc', 'fp-b1', 1002))?.id).toBe('art_b1')
      expect(await ledger.boughtAnswer('0xdef', 'fp-b1', 1002)).toBeNull()
      expect(await ledger.boughtAnswer('0xabc', 'fp-other', 1002)).toBeNull()
      expect(await ledger.boughtAnswer('0xabc', 'fp-b2', 1002)).toBeNull()
      expect(await ledger.boughtAnswer('0xabc', 'fp-b1', 10_000)).toBeNull() // expired with the answer
    },
    TIMEOUT_MS,
  )

  test(
    'sign-in: a nonce is taken once, on any ledger of the storage, and dropped once its challenge expired',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      expect(await ledger.useSignInNonce('n0nce0001', 2000)).toBe(true)
      expect(await ledger.useSignInNonce('n0nce0001', 2000)).toBe(false)
      if (backend.sharedStorage) expect(await (await store.open()).useSignInNonce('n0nce0001', 2000)).toBe(false)
      expect(await ledger.purgeExpired(2000)).toBe(1)
      expect(await ledger.useSignInNonce('n0nce0001', 3000)).toBe(true)
    },
    TIMEOUT_MS,
  )
}
