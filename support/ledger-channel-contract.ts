/**
 * What every store of x402 batch-settlement channels must do (the package's ChannelStorage): registered
 * once per backend, the package's own InMemoryChannelStorage first as the reference, then the ledger's
 * engines (SQLite in test/ledger/channels.test.ts, PostgreSQL in test/ledger/channels-postgres.test.ts).
 * Each test gets fresh, empty storage. Channels are buyers' money: every field comes back exactly, an
 * update is atomic against concurrent ones (no lost update), and a ledger keeps them through a restart.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server'
import type { PaymentLedger } from '../src/ledger/contract'

const TIMEOUT_MS = 30_000
export const NETWORK = 'eip155:84532'
export const OTHER_NETWORK = 'eip155:8453'

/** What a backend opens: a ledger, or (the reference) anything with channel storages per network. */
export type ChannelHandle = Pick<PaymentLedger, 'channelStorage'> &
  Partial<Pick<PaymentLedger, 'recordRedemption' | 'channelSummary' | 'redemptionTotals'>>

/** Fresh storage for one test. */
export interface ChannelStore {
  /** A handle on this storage: another ledger (connection, instance) each call where the backend is `separate`, else the same one. */
  open(): Promise<ChannelHandle>
  /** Closes every handle opened so far, as a restart does. */
  closeAll(): Promise<void>
  /** The stored row's version (ledgers), or null without a row: what shows that nothing was written. */
  version?(channelId: string): Promise<number | null>
  dispose(): Promise<void>
}

export interface ChannelBackend {
  name: string
  /** Each `open()` is another ledger on the same storage (not so for the reference, nor SQLite's ':memory:'). */
  separate: boolean
  /** The channels are there again after `closeAll()` and `open()`. */
  durable: boolean
  /** A ledger: the redemptions and sums (recordRedemption, channelSummary, redemptionTotals). */
  ledger: boolean
  fresh(): Promise<ChannelStore>
}

/** The id of test channel `index`: bytes32 hex, lower case. */
export const channelIdOf = (index: number): string => `0x${index.toString(16).padStart(64, '0')}`

/** A channel with every field set, amounts past 2^64 where they may be. */
export function fullChannel(index: number, overrides: Partial<Channel> = {}): Channel {
  return {
    channelId: channelIdOf(index),
    channelConfig: {
      payer: '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B',
      payerAuthorizer: '0x0000000000000000000000000000000000000000',
      receiver: '0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003',
      receiverAuthorizer: '0x1111111111111111111111111111111111111111',
      token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      withdrawDelay: 3600,
      salt: `0x${'5a'.repeat(32)}`,
    },
    chargedCumulativeAmount: '340282366920938463463374607431768211455',
    signedMaxClaimable: '340282366920938463463374607431768211455',
    signature: `0x${'ab'.repeat(65)}`,
    balance: '18446744073709551617',
    totalClaimed: '9007199254740993',
    withdrawRequestedAt: 1_760_000_000,
    refundNonce: 3,
    onchainSyncedAt: 1_760_000_000_123,
    lastRequestTimestamp: 1_760_000_000_456,
    pendingRequest: {
      pendingId: `pending-${index}`,
      signedMaxClaimable: '340282366920938463463374607431768211455',
      expiresAt: 1_760_000_010_000,
    },
    ...overrides,
  }
}

/** A channel as a first deposit leaves it: no optional field. */
export function plainChannel(index: number, overrides: Partial<Channel> = {}): Channel {
  const { pendingRequest: _pending, onchainSyncedAt: _synced, ...plain } = fullChannel(index)
  return { ...plain, chargedCumulativeAmount: '0', signedMaxClaimable: '0', totalClaimed: '0', balance: '1000000', ...overrides }
}

/** Stores `channel` (whatever was there before). */
export const put = (storage: ChannelStorage, channel: Channel) => storage.updateChannel(channel.channelId, () => channel)

export interface ChannelStores {
  fresh(): Promise<ChannelStore>
}

export function channelContract(backend: ChannelBackend): void {
  describe(`ChannelStorage contract: ${backend.name}`, () => {
    const stores: ChannelStore[] = []
    const fresh = async () => {
      const store = await backend.fresh()
      stores.push(store)
      return store
    }
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.dispose()
    })
    roundTrips(backend, { fresh })
    unchangedAndDeleted(backend, { fresh })
    networksAndIds(backend, { fresh })
    concurrentUpdates(backend, { fresh })
    sharedAndKept(backend, { fresh })
    channelFigures(backend, { fresh })
  })
}

/** Every field comes back exactly, through get, list and the update's result; optional fields absent when absent. */
function roundTrips(backend: ChannelBackend, { fresh }: ChannelStores): void {
  test(
    'every Channel field round-trips exactly: uint128 amounts as strings, pendingRequest and onchainSyncedAt kept, and absent when absent',
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const full = fullChannel(1)
      const plain = plainChannel(2)
      expect(await put(storage, full)).toEqual({ channel: full, status: 'updated' })
      expect(await put(storage, plain)).toEqual({ channel: plain, status: 'updated' })
      const reader = backend.separate ? (await store.open()).channelStorage(NETWORK) : storage
      expect(await reader.get(full.channelId)).toEqual(full)
      const stored = (await reader.get(plain.channelId))!
      expect(stored).toEqual(plain)
      expect(Object.keys(stored).sort()).toEqual(Object.keys(plain).sort())
      expect(await reader.list()).toEqual([full, plain])

      // A reservation cleared and the chain state forgotten: both fields go.
      const { pendingRequest: _pending, onchainSyncedAt: _synced, ...cleared } = full
      await storage.updateChannel(full.channelId, () => cleared)
      const after = (await reader.get(full.channelId))!
      expect(after).toEqual(cleared)
      expect('pendingRequest' in after || 'onchainSyncedAt' in after).toBe(false)
    },
    TIMEOUT_MS,
  )

  test(
    'the update is given the stored channel, and what it returns is stored in place of it',
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const seen: (Channel | undefined)[] = []
      const first = plainChannel(3)
      await storage.updateChannel(first.channelId, (current) => {
        seen.push(current)
        return first
      })
      const charged = { ...first, chargedCumulativeAmount: '30000', signedMaxClaimable: '30000', lastRequestTimestamp: 1_760_000_001_000 }
      expect(
        await storage.updateChannel(first.channelId, (current) => {
          seen.push(current)
          return charged
        }),
      ).toEqual({ channel: charged, status: 'updated' })
      expect(seen).toEqual([undefined, first])
      expect(await storage.get(first.channelId)).toEqual(charged)
    },
    TIMEOUT_MS,
  )
}

/** Returning `current` itself leaves the record as it is (nothing written); returning undefined deletes it. */
function unchangedAndDeleted(_backend: ChannelBackend, { fresh }: ChannelStores): void {
  test(
    "returning the current channel itself is 'unchanged' and writes nothing; nothing for nothing is 'unchanged' and creates nothing",
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const channel = fullChannel(4)
      await put(storage, channel)
      const before = await store.version?.(channel.channelId)
      if (store.version) expect(before).toBe(1) // the first write
      let given: Channel | undefined
      const result = await storage.updateChannel(channel.channelId, (current) => {
        given = current
        return current
      })
      expect(result.status).toBe('unchanged')
      expect(result.channel).toBe(given!) // the very object the update returned
      expect(result.channel).toEqual(channel)
      expect(await store.version?.(channel.channelId)).toBe(before)

      const absent = channelIdOf(404)
      expect(await storage.updateChannel(absent, (current) => current)).toEqual({ channel: undefined, status: 'unchanged' })
      expect(await storage.updateChannel(absent, () => undefined)).toEqual({ channel: undefined, status: 'unchanged' })
      expect(await storage.get(absent)).toBeUndefined()
      if (store.version) expect(await store.version(absent)).toBeNull()
      expect(await storage.list()).toEqual([channel])
    },
    TIMEOUT_MS,
  )

  test(
    "returning undefined deletes the channel ('deleted'); an update that throws rejects and changes nothing",
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const kept = plainChannel(5)
      const dropped = fullChannel(6)
      await put(storage, kept)
      await put(storage, dropped)
      expect(await storage.updateChannel(dropped.channelId, () => undefined)).toEqual({ channel: undefined, status: 'deleted' })
      expect(await storage.get(dropped.channelId)).toBeUndefined()
      expect(await storage.list()).toEqual([kept])

      const failing = storage.updateChannel(kept.channelId, () => {
        throw new Error('the scheme refused')
      })
      await expect(failing).rejects.toThrow('the scheme refused')
      expect(await storage.get(kept.channelId)).toEqual(kept)
      // Created again after a delete: a channel id may be opened again once refunded.
      await put(storage, dropped)
      expect(await storage.get(dropped.channelId)).toEqual(dropped)
    },
    TIMEOUT_MS,
  )
}

/** A storage is one network's; channel ids are keyed in lower case, and anything not a bytes32 id is refused. */
function networksAndIds(_backend: ChannelBackend, { fresh }: ChannelStores): void {
  test(
    "list() and get() of a network's storage see that network's channels only",
    async () => {
      const store = await fresh()
      const handle = await store.open()
      const sepolia = handle.channelStorage(NETWORK)
      const base = handle.channelStorage(OTHER_NETWORK)
      const [first, second, third] = [plainChannel(9), fullChannel(7), plainChannel(8)]
      await put(sepolia, first)
      await put(sepolia, second)
      await put(base, third)
      expect((await sepolia.list()).map((channel) => channel.channelId).sort()).toEqual([second.channelId, first.channelId].sort())
      expect(await base.list()).toEqual([third])
      expect(await base.get(first.channelId)).toBeUndefined()
      expect(await sepolia.get(third.channelId)).toBeUndefined()
      // The same network asked again: the same channels.
      expect(await handle.channelStorage(OTHER_NETWORK).get(third.channelId)).toEqual(third)
    },
    TIMEOUT_MS,
  )

  test(
    'a channel id is its lower case (upper-case hex finds the channel); an id that is no bytes32 hex is refused',
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const channel = plainChannel(0xabcdef)
      const upper = `0x${channel.channelId.slice(2).toUpperCase()}`
      expect(await storage.updateChannel(upper, () => channel)).toEqual({ channel, status: 'updated' })
      expect(await storage.get(upper)).toEqual(channel)
      expect(await storage.get(channel.channelId)).toEqual(channel)
      expect((await storage.list()).map((stored) => stored.channelId)).toEqual([channel.channelId])
      for (const bad of ['0x1234', 'abc', `0x${'g'.repeat(64)}`, `${channel.channelId}00`]) {
        await expect(storage.get(bad)).rejects.toThrow()
        await expect(storage.updateChannel(bad, () => undefined)).rejects.toThrow()
      }
    },
    TIMEOUT_MS,
  )
}

/** Concurrent updates of one channel, from one ledger or two on the same storage, never interleave. */
function concurrentUpdates(backend: ChannelBackend, { fresh }: ChannelStores): void {
  test(
    `50 concurrent increments of one channel's charge, from ${backend.separate ? 'two ledgers' : 'one ledger'} at once, end at exactly 50: no update is lost`,
    async () => {
      const store = await fresh()
      const storages = [(await store.open()).channelStorage(NETWORK), (await store.open()).channelStorage(NETWORK)]
      const channel = plainChannel(11)
      await put(storages[0]!, channel)
      let calls = 0
      const increment = (current: Channel | undefined): Channel => {
        calls += 1
        const charged = String(BigInt(current!.chargedCumulativeAmount) + 1n)
        return { ...current!, chargedCumulativeAmount: charged, signedMaxClaimable: charged }
      }
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, index) => storages[index % 2]!.updateChannel(channel.channelId, increment)),
      )
      expect(results.every((result) => result.status === 'updated')).toBe(true)
      // Each update started from another stored charge: 1 to 50, once each.
      const charges = results.map((result) => Number(result.channel!.chargedCumulativeAmount)).sort((left, right) => left - right)
      expect(charges).toEqual(Array.from({ length: 50 }, (_, index) => index + 1))
      for (const storage of storages) expect((await storage.get(channel.channelId))!.chargedCumulativeAmount).toBe('50')
      expect(calls).toBeGreaterThanOrEqual(50) // more where an update lost a race and ran again
    },
    TIMEOUT_MS,
  )
}

/** Another ledger on the same storage reads an update once it resolves; a ledger keeps channels through a restart. */
function sharedAndKept(backend: ChannelBackend, { fresh }: ChannelStores): void {
  test.skipIf(!backend.separate)(
    'what one ledger updated, another on the same storage reads as soon as the update resolves, and updates in turn',
    async () => {
      const store = await fresh()
      const [writer, reader] = [(await store.open()).channelStorage(NETWORK), (await store.open()).channelStorage(NETWORK)]
      const channel = fullChannel(12)
      await put(writer, channel)
      expect(await reader.get(channel.channelId)).toEqual(channel)
      const next = { ...channel, totalClaimed: channel.chargedCumulativeAmount }
      expect(
        await reader.updateChannel(channel.channelId, (current) => ({ ...current!, totalClaimed: current!.chargedCumulativeAmount })),
      ).toEqual({
        channel: next,
        status: 'updated',
      })
      expect(await writer.get(channel.channelId)).toEqual(next)
    },
    TIMEOUT_MS,
  )

  test.skipIf(!backend.durable)(
    'channels are kept through a restart (every ledger closed, one opened again), deletions too',
    async () => {
      const store = await fresh()
      const storage = (await store.open()).channelStorage(NETWORK)
      const [kept, plain, dropped] = [fullChannel(13), plainChannel(14), plainChannel(15)]
      for (const channel of [kept, plain, dropped]) await put(storage, channel)
      await storage.updateChannel(dropped.channelId, () => undefined)
      await store.closeAll()
      const reopened = (await store.open()).channelStorage(NETWORK)
      expect(await reopened.list()).toEqual([kept, plain])
      expect(await reopened.get(dropped.channelId)).toBeUndefined()
    },
    TIMEOUT_MS,
  )
}

/** A ledger's record of chain actions and its sums per network, read by another ledger on the same storage. */
function channelFigures(backend: ChannelBackend, { fresh }: ChannelStores): void {
  test.skipIf(!backend.ledger)(
    'channelSummary() sums each network exactly (never below 0 unclaimed); redemptionTotals(since) counts and adds what was recorded since',
    async () => {
      const store = await fresh()
      const ledger = await store.open()
      const sepolia = ledger.channelStorage(NETWORK)
      await put(sepolia, plainChannel(21, { balance: '1000', chargedCumulativeAmount: '600', totalClaimed: '100' }))
      await put(
        sepolia,
        fullChannel(22, { balance: `${2n ** 100n}`, chargedCumulativeAmount: `${2n ** 99n}`, totalClaimed: `${2n ** 99n}` }),
      )
      // Claimed past the charge (the charge was lost with the server's state): no negative exposure.
      await put(ledger.channelStorage(OTHER_NETWORK), plainChannel(23, { balance: '50', chargedCumulativeAmount: '5', totalClaimed: '10' }))
      const record = ledger.recordRedemption!.bind(ledger)
      await record({ at: 500, kind: 'deposit', network: NETWORK, txHash: '0xd1', amountAtomic: '1000', channels: 1 })
      await record({ at: 1000, kind: 'claim', network: NETWORK, txHash: '0xc1', amountAtomic: '500', channels: 2 })
      await record({
        at: 2000,
        kind: 'claim',
        network: NETWORK,
        txHash: '0xc2',
        amountAtomic: `${2n ** 70n}`,
        channels: 1,
        detail: 'batch 2',
      })
      await record({ at: 2000, kind: 'settle', network: NETWORK, txHash: '0x5e', amountAtomic: `${2n ** 70n + 500n}`, channels: 0 })
      await record({ at: 3000, kind: 'refund', network: OTHER_NETWORK, amountAtomic: '40', channels: 1 })
      const reader = backend.separate ? await store.open() : ledger
      expect(await reader.channelSummary!()).toEqual([
        { network: OTHER_NETWORK, channels: 1, unclaimedChannels: 0, balance: '50', charged: '5', claimed: '10', unclaimed: '0' },
        {
          network: NETWORK,
          channels: 2,
          unclaimedChannels: 1,
          balance: `${2n ** 100n + 1000n}`,
          charged: `${2n ** 99n + 600n}`,
          claimed: `${2n ** 99n + 100n}`,
          unclaimed: '500',
        },
      ])
      expect(await reader.redemptionTotals!(1000)).toEqual([
        { network: OTHER_NETWORK, kind: 'refund', count: 1, amountAtomic: '40', channels: 1 },
        { network: NETWORK, kind: 'claim', count: 2, amountAtomic: `${2n ** 70n + 500n}`, channels: 3 },
        { network: NETWORK, kind: 'settle', count: 1, amountAtomic: `${2n ** 70n + 500n}`, channels: 0 },
      ])
      expect(await reader.redemptionTotals!(3001)).toEqual([])
    },
    TIMEOUT_MS,
  )
}
