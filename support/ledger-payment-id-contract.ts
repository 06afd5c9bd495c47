/**
 * x402's payment-identifier in the ledger, for every backend (registered by ledger-contract.ts): per
 * payer, an id names one payload while its payment is not failed. Another payload under it takes
 * nothing (`id_conflict`), before or after the commit, on this ledger or another one on the same storage.
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
