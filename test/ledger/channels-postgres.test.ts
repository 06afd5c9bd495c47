/**
 * x402 batch-settlement channels in the PostgreSQL ledger: the ChannelStorage contract
 * (support/ledger-channel-contract.ts), each `open()` another instance with its own pool, then what only
 * the compare-and-set has: a write of another instance between an update's read and its write makes the
 * update run again on the new row, never overwrite it. One throwaway cluster for the file
 * (support/postgres.ts), a fresh database per test. Without PostgreSQL's server binaries: fails in CI,
 * skipped locally.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server'
import { Postgres } from '../../src/postgres/client'
import { PostgresLedger } from '../../src/ledger/postgres'
import { migrate } from '../../src/ledger/postgres-migrations'
import {
  type ChannelStore,
  channelContract,
  fullChannel,
  NETWORK,
  OTHER_NETWORK,
  plainChannel,
  put,
} from '../../support/ledger-channel-contract'
import { postgresMissing, startPostgres, type StartedPostgres } from '../../support/postgres'
import { requireTool } from '../../support/required-tool'
import { waitFor } from '../../support/until'

const FILE = 'test/ledger/channels-postgres.test.ts'
const hasPostgres = requireTool(
  FILE,
  postgresMissing(),
  ".ci/run installs Debian's postgresql package; the shared ledger's channels are tested against it",
)
const TIMEOUT_MS = 30_000

describe.skipIf(!hasPostgres)('PostgreSQL ledger: batch-settlement channels', () => {
  let cluster: StartedPostgres
  let admin: SQL
  beforeAll(async () => {
    cluster = await startPostgres()
    admin = new SQL(cluster.url, { max: 2 })
  }, 60_000)
  afterAll(async () => {
    await admin?.close()
    await cluster?.destroy()
  })

  let databases = 0
  /** A new, migrated database on the cluster; its URL. */
  const freshDatabase = async (): Promise<string> => {
    const name = `channels_${++databases}`
    await admin.unsafe(`CREATE DATABASE ${name}`)
    const url = cluster.url.replace(/\/postgres$/, `/${name}`)
    const pg = new Postgres(url)
    await migrate(pg)
    await pg.close()
    return url
  }

  /** Storage on a fresh database: each `open()` another instance of the service (its own pool and ledger). */
  const freshStore = async (): Promise<ChannelStore & { inspect: Postgres; version(channelId: string): Promise<number | null> }> => {
    const url = await freshDatabase()
    const inspect = new Postgres(url)
    let opened: { pg: Postgres; ledger: PostgresLedger }[] = []
    const closeAll = async () => {
      for (const { pg, ledger } of opened.splice(0).reverse()) {
        await ledger.close()
        await pg.close()
      }
    }
    return {
      inspect,
      async open() {
        const pg = new Postgres(url)
        const ledger = new PostgresLedger(pg, `inst_${opened.length}`)
        opened.push({ pg, ledger })
        return ledger
      },
      closeAll,
      async version(channelId) {
        const rows = await inspect.sql<{ version: string }[]>`SELECT version FROM batch_channels WHERE channel_id = ${channelId}`
        return rows[0] ? Number(rows[0].version) : null
      },
      async dispose() {
        await closeAll()
        opened = []
        await inspect.close()
      },
    }
  }

  const stores: { dispose(): Promise<void> }[] = []
  afterEach(async () => {
    for (const store of stores.splice(0).reverse()) await store.dispose().catch(() => {})
  })
  const store = async () => {
    const fresh = await freshStore()
    stores.push(fresh)
    return fresh
  }

  channelContract({ name: 'PostgreSQL, each ledger another instance', separate: true, durable: true, ledger: true, fresh: freshStore })

  const increment = (current: Channel | undefined): Channel => {
    const charged = String(BigInt(current!.chargedCumulativeAmount) + 1n)
    return { ...current!, chargedCumulativeAmount: charged, signedMaxClaimable: charged }
  }

  test(
    "another instance's write between an update's read and its write: the update touches nothing, reads the new row and runs again on it",
    async () => {
      const fresh = await store()
      const storage = (await fresh.open()).channelStorage(NETWORK)
      const channel = plainChannel(1)
      await put(storage, channel)
      const seen: string[] = []
      let updating: Promise<unknown> | undefined
      // Another writer holds the row, changed and not committed yet: the update reads the committed
      // row (version 1), and its write waits for the other's commit, then finds version 2 and writes nothing.
      await fresh.inspect.sql.begin(async (tx) => {
        await tx`UPDATE batch_channels SET charged_cumulative = '7', signed_max_claimable = '7', version = version + 1 WHERE channel_id = ${channel.channelId}`
        updating = storage.updateChannel(channel.channelId, (current) => {
          seen.push(current!.chargedCumulativeAmount)
          return increment(current)
        })
        await waitFor('the update ran once, on the committed row', () => seen.length === 1)
        await Bun.sleep(200) // its write is now waiting for this transaction's lock on the row
      })
      expect(await updating).toMatchObject({ status: 'updated', channel: { chargedCumulativeAmount: '8' } })
      expect(seen).toEqual(['0', '7'])
      expect(await fresh.version(channel.channelId)).toBe(3)
      expect((await storage.get(channel.channelId))!.chargedCumulativeAmount).toBe('8')
    },
    TIMEOUT_MS,
  )

  test(
    'a delete and a new channel race with other instances the same way: a deleted channel is not written back, a created one not created twice',
    async () => {
      const fresh = await store()
      const storages: ChannelStorage[] = []
      for (let index = 0; index < 4; index++) storages.push((await fresh.open()).channelStorage(NETWORK))
      const channel = fullChannel(2, { chargedCumulativeAmount: '0', signedMaxClaimable: '0' })
      // Four instances create the channel at once: one creates it, the others then find it and increment.
      const created = await Promise.all(
        storages.map((storage) => storage.updateChannel(channel.channelId, (current) => (current ? increment(current) : channel))),
      )
      expect(created.map((result) => result.status)).toEqual(['updated', 'updated', 'updated', 'updated'])
      expect((await storages[0]!.get(channel.channelId))!.chargedCumulativeAmount).toBe('3')
      // Deletes and increments at once: an increment after the delete finds nothing and leaves nothing.
      const raced = await Promise.all(
        storages.map((storage, index) =>
          storage.updateChannel(channel.channelId, (current) => (index === 0 || !current ? undefined : increment(current))),
        ),
      )
      expect(raced[0]).toEqual({ channel: undefined, status: 'deleted' })
      expect(await storages[3]!.get(channel.channelId)).toBeUndefined()
      expect(await fresh.version(channel.channelId)).toBeNull()
    },
    TIMEOUT_MS,
  )

  test(
    'a channel of another network is neither read nor updated through this network',
    async () => {
      const ledger = await (await store()).open()
      const channel = plainChannel(3)
      await put(ledger.channelStorage(OTHER_NETWORK), channel)
      const sepolia = ledger.channelStorage(NETWORK)
      expect(await sepolia.get(channel.channelId)).toBeUndefined()
      await expect(sepolia.updateChannel(channel.channelId, () => plainChannel(3))).rejects.toThrow(`is on ${OTHER_NETWORK}`)
      expect(await ledger.channelStorage(OTHER_NETWORK).get(channel.channelId)).toEqual(channel)
    },
    TIMEOUT_MS,
  )
})
