/** The ledger contract's retention tests (ledger-contract.ts): what goes when, over more payments than one pass. */
import { expect, test } from 'bun:test'
import { artifactOf, claimOf, eventOf, type LedgerBackend, type Storage } from './ledger-fixtures'

const TIMEOUT_MS = 30_000

/** Retention: what goes when, over more payments than one pass. */
export function retention(_backend: LedgerBackend, { fresh }: Storage): void {
  test(
    'retention: failed payments and their events go after keep.failedSeconds, served ones only when keep.servedSeconds is set; pending never',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      const at = 100_000
      const make = async (key: string, end: 'release' | 'complete' | 'park') => {
        await ledger.claim(claimOf(key), at, at - 300)
        ledger.record(eventOf(key, 'verified', at))
        if (end === 'release') ledger.release(key, at)
        else if (end === 'complete') ledger.complete(key, { ...artifactOf(`art-${key}`), expiresAt: at + 10 * 86400 }, at)
        else ledger.park(key, { ...artifactOf(`art-${key}`), expiresAt: at + 10 * 86400 }, at)
      }
      await make('old-failed', 'release')
      await make('old-served', 'complete')
      await make('old-pending', 'park')
      await ledger.durable()
      // Within the failed retention: nothing goes.
      expect(await ledger.purgeExpired(at + 50, { failedSeconds: 100, servedSeconds: null })).toBe(0)
      expect(await store.payment('old-failed')).not.toBeNull()
      // Past it: the failed payment and its event go; served (kept for ever) and pending stay.
      expect(await ledger.purgeExpired(at + 101, { failedSeconds: 100, servedSeconds: null })).toBe(2)
      expect([await store.payment('old-failed'), await store.events('old-failed')]).toEqual([null, []])
      expect(await store.payment('old-served')).toMatchObject({ state: 'served' })
      expect(await store.payment('old-pending')).toMatchObject({ state: 'pending' })
      // A served retention: the served payment, its event and its stored result go; pending still stays.
      expect(await ledger.purgeExpired(at + 101, { failedSeconds: 100, servedSeconds: 100 })).toBe(3)
      expect([await store.payment('old-served'), await store.events('old-served')]).toEqual([null, []])
      expect(await ledger.artifact('art-old-served', at + 101)).toBeNull()
      expect(await store.payment('old-pending')).toMatchObject({ state: 'pending' })
      expect(await store.events('old-pending')).toHaveLength(1)
    },
    TIMEOUT_MS,
  )

  test(
    'retention over more payments than one pass step drops every old one with all its events, and nothing younger or open',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      const at = 200_000
      const served = Array.from({ length: 1_200 }, (_, i) => `s${i}`)
      for (const [i, key] of served.entries()) {
        await ledger.claim(claimOf(key), at + i, at - 300)
        ledger.record(eventOf(key, 'verified', at + i))
        ledger.complete(key, { ...artifactOf(`art-${key}`), expiresAt: at + 10 * 86400 }, at + i + 1)
        ledger.record(eventOf(key, 'served', at + i + 1))
        if (i === 600) {
          // Open while its neighbours in time go: it and its event stay.
          await ledger.claim(claimOf('open'), at + i, at - 300)
          ledger.record(eventOf('open', 'verified', at + i))
          ledger.park('open', { ...artifactOf('art-open'), expiresAt: at + 10 * 86400 }, at + i)
        }
      }
      await ledger.claim(claimOf('young'), at + 5_000, at - 300)
      ledger.record(eventOf('young', 'verified', at + 5_000))
      ledger.complete('young', { ...artifactOf('art-young'), expiresAt: at + 10 * 86400 }, at + 5_000)
      await ledger.durable()
      // Everything served before t + 2,000 goes: 1,200 payments, 2,400 events, 1,200 stored results.
      expect(await ledger.purgeExpired(at + 3_000, { failedSeconds: 100, servedSeconds: 1_000 })).toBe(4_800)
      for (const key of [served[0]!, served[599]!, served[1_199]!])
        expect([await store.payment(key), await store.events(key)]).toEqual([null, []])
      expect(await store.payment('open')).toMatchObject({ state: 'pending' })
      expect(await store.events('open')).toHaveLength(1)
      expect(await store.payment('young')).toMatchObject({ state: 'served' })
      expect(await store.events('young')).toHaveLength(1)
    },
    TIMEOUT_MS,
  )
}
