/**
 * x402 batch-settlement channels in the ledger: the ChannelStorage contract (support/ledger-channel-contract.ts)
 * against the package's InMemoryChannelStorage (the reference) and the SQLite ledger (in memory, a file,
 * a file opened shared by two ledgers), then what only SQLite has: a channel update commits by itself
 * beside the group commit, and processes sharing one file take turns.
 */
import { afterAll, afterEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type ChannelStorage, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server'
import type { PaymentLedger } from '../../src/ledger/contract'
import { SqliteLedger } from '../../src/ledger/sqlite'
import {
  type ChannelBackend,
  type ChannelStore,
  channelContract,
  fullChannel,
  NETWORK,
  OTHER_NETWORK,
  plainChannel,
  put,
} from '../../support/ledger-channel-contract'
import { artifactOf, claimOf } from '../../support/ledger-fixtures'

const dir = mkdtempSync(join(tmpdir(), 'channels-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// The ledger's storage is the package's type (a change of ChannelStorage fails to compile here).
const storageOf = (ledger: PaymentLedger): ChannelStorage => ledger.channelStorage(NETWORK)

channelContract({
  name: "x402's InMemoryChannelStorage (the reference)",
  separate: false,
  durable: false,
  ledger: false,
  async fresh(): Promise<ChannelStore> {
    const storages = new Map<string, ChannelStorage>()
    const handle = {
      channelStorage(network: string) {
        if (!storages.has(network)) storages.set(network, new InMemoryChannelStorage())
        return storages.get(network)!
      },
    }
    return { open: async () => handle, closeAll: async () => {}, dispose: async () => {} }
  },
})

let files = 0
/** SQLite storage: a new file (or one in-memory database), ledgers opened on it as `shared` or not. */
const sqliteBackend = (name: string, options: { memory?: boolean; shared?: boolean }): ChannelBackend => ({
  name,
  separate: !options.memory,
  durable: !options.memory,
  ledger: true,
  async fresh(): Promise<ChannelStore> {
    const path = options.memory ? ':memory:' : join(dir, `channels-${++files}.sqlite`)
    const opened: SqliteLedger[] = []
    let memory: SqliteLedger | undefined
    const open = async () => {
      if (memory) return memory
      const ledger = new SqliteLedger(path, { shared: options.shared === true })
      opened.push(ledger)
      if (options.memory) memory = ledger
      return ledger
    }
    const closeAll = async () => {
      for (const ledger of opened.splice(0)) ledger.close()
      memory = undefined
    }
    return {
      open,
      closeAll,
      async version(channelId) {
        const db = (opened[0] as unknown as { db: Database }).db
        const row = db.query<{ version: number }, [string]>('SELECT version FROM batch_channels WHERE channel_id = ?').get(channelId)
        return row ? row.version : null
      },
      dispose: closeAll,
    }
  },
})

channelContract(sqliteBackend('SQLite :memory:', { memory: true }))
channelContract(sqliteBackend('SQLite file', {}))
channelContract(sqliteBackend('SQLite file opened shared by two ledgers (REUSE_PORT)', { shared: true }))

// SQLite only.

const open: SqliteLedger[] = []
const ledgerAt = (path: string, shared = false) => {
  const ledger = new SqliteLedger(path, { shared })
  open.push(ledger)
  return ledger
}
afterEach(() => {
  for (const ledger of open.splice(0)) ledger.close()
})
const fileInNewFolder = (name: string) => join(mkdtempSync(join(dir, 'ledger-')), name)

test('a channel update is in the file when it resolves, beside the group commit: the payments queued in the turn still commit with durable()', async () => {
  const path = fileInNewFolder('ledger.sqlite')
  const ledger = ledgerAt(path)
  await ledger.claim(claimOf('n1'), 1000, 900)
  ledger.complete('n1', artifactOf('art_1'), 1001)
  const channel = fullChannel(1)
  await put(storageOf(ledger), channel)
  const file = new Database(path, { readonly: true })
  try {
    const count = (table: string) => file.query<{ rows: number }, []>(`SELECT count(*) AS rows FROM ${table}`).get()!.rows
    expect([count('batch_channels'), count('payments')]).toEqual([1, 0]) // the payment waits for its commit
    await ledger.durable()
    expect([count('batch_channels'), count('payments')]).toEqual([1, 1])
    expect(await ledger.lookup('n1')).toMatchObject({ state: 'served', artifactId: 'art_1' })
    expect(await storageOf(ledgerAt(path)).get(channel.channelId)).toEqual(channel)
  } finally {
    file.close()
  }
})

test('a channel of another network is neither read nor updated through this network: the update is refused, the channel kept', async () => {
  const ledger = ledgerAt(':memory:')
  const channel = plainChannel(2)
  await put(ledger.channelStorage(OTHER_NETWORK), channel)
  const sepolia = ledger.channelStorage(NETWORK)
  expect(await sepolia.get(channel.channelId)).toBeUndefined()
  await expect(sepolia.updateChannel(channel.channelId, () => fullChannel(2))).rejects.toThrow(`is on ${OTHER_NETWORK}`)
  await expect(sepolia.updateChannel(channel.channelId, () => plainChannel(3))).rejects.toThrow()
  expect(await ledger.channelStorage(OTHER_NETWORK).get(channel.channelId)).toEqual(channel)
})

test('an update whose channel names another id is refused: it would be stored as another channel', async () => {
  const storage = storageOf(ledgerAt(':memory:'))
  await expect(storage.updateChannel(plainChannel(4).channelId, () => plainChannel(5))).rejects.toThrow('returned the channel')
  expect(await storage.list()).toEqual([])
})

/** A process that opens `path` shared and adds 1 to the channel's charge `times` times, one update a turn. */
const INCREMENTER = `
const { SqliteLedger } = await import(${JSON.stringify(resolve(import.meta.dir, '../../src/ledger/sqlite.ts'))})
const [path, network, channelId, times] = process.argv.slice(2)
const ledger = new SqliteLedger(path, { shared: true })
const storage = ledger.channelStorage(network)
for (let done = 0; done < Number(times); done++) {
  await storage.updateChannel(channelId, (current) => {
    const charged = String(BigInt(current.chargedCumulativeAmount) + 1n)
    return { ...current, chargedCumulativeAmount: charged, signedMaxClaimable: charged }
  })
  await new Promise((resolve) => setImmediate(resolve))
}
ledger.close()
`

test('three processes on one file opened shared add 1 to one channel 150 times each, at once: it ends at exactly 450', async () => {
  const path = fileInNewFolder('shared.sqlite')
  const channel = plainChannel(6)
  await put(storageOf(ledgerAt(path, true)), channel)
  const script = join(dir, 'incrementer.ts')
  await Bun.write(script, INCREMENTER)
  const runs = Array.from({ length: 3 }, () =>
    Bun.spawn([process.execPath, script, path, NETWORK, channel.channelId, '150'], { stdout: 'pipe', stderr: 'pipe' }),
  )
  const codes = await Promise.all(runs.map((run) => run.exited))
  const errors = await Promise.all(runs.map((run) => new Response(run.stderr).text()))
  expect({ codes, errors }).toEqual({ codes: [0, 0, 0], errors: ['', '', ''] })
  expect((await storageOf(ledgerAt(path, true)).get(channel.channelId))!.chargedCumulativeAmount).toBe('450')
}, 60_000)
