/**
 * The PostgreSQL ledger's batch-settlement channels (x402's ChannelStorage, one per network) and
 * redemptions: the part of the ledger's contract PostgresLedger inherits from here.
 *
 * An update is an optimistic compare-and-set on the row's `version`, as the package's Redis storage does
 * on its value: read the row, run the (synchronous) update, then write only if the row is still at the
 * version read (`UPDATE`/`DELETE … WHERE version = $v`, or `INSERT … ON CONFLICT DO NOTHING` for a new
 * channel). Another instance that wrote in between makes it touch no row: read again and retry, up to
 * MAX_TRIES. Within one instance the updates of a channel take turns (a lock per channel), so only
 * other instances can make one retry. Each write is one statement, committed when the update resolves.
 * A write cut off by the statement deadline (LedgerUnavailable) may still land later, and then only on
 * the version it was made from: the update rejected, yet the channel may hold its result.
 */
import type { Postgres } from '../../postgres'
import type { ChannelSummary, RedemptionEntry, RedemptionKind, RedemptionTotal } from '../contract'
import {
  type Channel,
  CHANNEL_COLUMNS,
  channelKey,
  channelOf,
  type ChannelRow,
  type ChannelStorage,
  type ChannelUpdate,
  type ChannelUpdateResult,
  redemptionRow,
  rowOf,
} from './channel-rows'

/** Writes lost to other instances before an update gives up (each loss means another instance's update landed). */
export const MAX_TRIES = 50

type Row = ChannelRow<string>

// Parameters: the row's columns in CHANNEL_COLUMNS' order ($1…), then (UPDATE) the version read.
const PARAMETER = new Map(CHANNEL_COLUMNS.map((column, index) => [column, `$${index + 1}`]))
const INSERT = `INSERT INTO batch_channels (${CHANNEL_COLUMNS.join(', ')}) VALUES (${[...PARAMETER.values()].join(', ')})
  ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`
const UPDATE = `UPDATE batch_channels SET ${CHANNEL_COLUMNS.filter((column) => column !== 'channel_id')
  .map((column) => `${column} = ${PARAMETER.get(column)}`)
  .join(', ')}
  WHERE channel_id = ${PARAMETER.get('channel_id')} AND version = $${CHANNEL_COLUMNS.length + 1} RETURNING channel_id`

/** The updates of one channel in this instance, one after another. */
class ChannelLocks {
  private readonly tails = new Map<string, Promise<unknown>>()

  async run<Result>(key: string, work: () => Promise<Result>): Promise<Result> {
    const mine = (this.tails.get(key) ?? Promise.resolve()).then(work)
    const tail = mine.catch(() => {})
    this.tails.set(key, tail)
    try {
      return await mine
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}

/** One network's channels in the shared database. */
class PostgresChannelStorage implements ChannelStorage {
  constructor(
    private readonly pg: Postgres,
    private readonly locks: ChannelLocks,
    private readonly network: string,
  ) {}

  async get(channelId: string): Promise<Channel | undefined> {
    const row = await this.read(channelKey(channelId))
    return row && row.network === this.network ? channelOf(row) : undefined
  }

  async list(): Promise<Channel[]> {
    const rows = await this.pg.run(
      'batch channels',
      (sql) => sql<Row[]>`SELECT * FROM batch_channels WHERE network = ${this.network} ORDER BY channel_id`,
    )
    return rows.map(channelOf)
  }

  async updateChannel(channelId: string, update: ChannelUpdate): Promise<ChannelUpdateResult> {
    const key = channelKey(channelId)
    return this.locks.run(key, () => this.compareAndSet(key, update))
  }

  private async read(key: string): Promise<Row | undefined> {
    const rows = await this.pg.run('batch channel', (sql) => sql<Row[]>`SELECT * FROM batch_channels WHERE channel_id = ${key}`)
    return rows[0]
  }

  private async compareAndSet(key: string, update: ChannelUpdate): Promise<ChannelUpdateResult> {
    for (let tries = 1; tries <= MAX_TRIES; tries++) {
      const row = await this.read(key)
      if (row && row.network !== this.network) throw new Error(`batch channel ${key} is on ${row.network}, not ${this.network}`)
      const current = row ? channelOf(row) : undefined
      const next = update(current)
      if (next === current) return { channel: current, status: 'unchanged' }
      if (await this.write(key, row, next)) return next ? { channel: next, status: 'updated' } : { channel: undefined, status: 'deleted' }
      // Another instance wrote the channel since it was read: a short pause, so that two do not meet again at once.
      await Bun.sleep(Math.random() * Math.min(tries, 10))
    }
    throw new Error(`batch channel ${key}: not updated, other instances' updates won ${MAX_TRIES} times in a row`)
  }

  /** Writes `next` (or deletes the row) if the row is still as read; whether it was. */
  private async write(key: string, row: Row | undefined, next: Channel | undefined): Promise<boolean> {
    const version = Number(row?.version ?? 0)
    const rows = await this.pg.run('batch channel update', (sql) => {
      if (!next) return sql`DELETE FROM batch_channels WHERE channel_id = ${key} AND version = ${version} RETURNING channel_id`
      const written = rowOf(key, next, this.network, version + 1, Date.now())
      const values = CHANNEL_COLUMNS.map((column) => written[column])
      return row ? sql.unsafe(UPDATE, [...values, version]) : sql.unsafe(INSERT, values)
    })
    return rows.length === 1
  }
}

/** The channels and redemptions of the shared database: PostgresLedger's base. */
export class PostgresChannelBook {
  private readonly storages = new Map<string, ChannelStorage>()
  private readonly locks = new ChannelLocks()

  constructor(protected readonly pg: Postgres) {}

  channelStorage(network: string): ChannelStorage {
    let storage = this.storages.get(network)
    if (!storage) {
      storage = new PostgresChannelStorage(this.pg, this.locks, network)
      this.storages.set(network, storage)
    }
    return storage
  }

  /** With an id of its own: a statement cut off by the deadline that lands later is not written twice. */
  async recordRedemption(entry: RedemptionEntry): Promise<void> {
    const row = { id: crypto.randomUUID(), ...redemptionRow(entry) }
    await this.pg.run('batch redemption', (sql) => sql`INSERT INTO batch_redemptions ${sql([row])} ON CONFLICT (id) DO NOTHING`)
  }

  async channelSummary(): Promise<ChannelSummary[]> {
    const rows = await this.pg.run(
      'batch channel summary',
      (sql) => sql<(Omit<ChannelSummary, 'channels' | 'unclaimedChannels'> & { channels: string; unclaimed_channels: string })[]>`
        SELECT network, count(*) AS channels,
          count(*) FILTER (WHERE charged_cumulative::numeric > total_claimed::numeric) AS unclaimed_channels,
          sum(balance::numeric)::text AS balance, sum(charged_cumulative::numeric)::text AS charged,
          sum(total_claimed::numeric)::text AS claimed,
          sum(GREATEST(charged_cumulative::numeric - total_claimed::numeric, 0))::text AS unclaimed
        FROM batch_channels GROUP BY network`,
    )
    return rows
      .map(({ unclaimed_channels, ...row }) => ({
        network: row.network,
        channels: Number(row.channels),
        unclaimedChannels: Number(unclaimed_channels),
        balance: row.balance,
        charged: row.charged,
        claimed: row.claimed,
        unclaimed: row.unclaimed,
      }))
      .sort((left, right) => left.network.localeCompare(right.network))
  }

  async redemptionTotals(since: number): Promise<RedemptionTotal[]> {
    const rows = await this.pg.run(
      'batch redemption totals',
      (sql) => sql<{ network: string; kind: RedemptionKind; count: string; amount: string; channels: string }[]>`
        SELECT network, kind, count(*) AS count, sum(amount_atomic::numeric)::text AS amount, sum(channels) AS channels
        FROM batch_redemptions WHERE at >= ${since} GROUP BY network, kind`,
    )
    return rows
      .map((row) => ({
        network: row.network,
        kind: row.kind,
        count: Number(row.count),
        amountAtomic: row.amount,
        channels: Number(row.channels),
      }))
      .sort((left, right) => left.network.localeCompare(right.network) || left.kind.localeCompare(right.kind))
  }
}
