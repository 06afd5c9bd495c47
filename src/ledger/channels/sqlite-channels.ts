/**
 * The SQLite ledger's batch-settlement channels (x402's ChannelStorage, one per network) and redemptions:
 * the part of the ledger's contract SqliteLedger inherits from here.
 *
 * An update is one synchronous transaction on the ledger's connection (read the row, run the update,
 * write): nothing else of this process runs in between (one JS thread; the ledger's group commit is
 * synchronous too, and holds no transaction across turns), and BEGIN IMMEDIATE takes the file's write
 * lock first, so another process on the same file (opened `shared`, REUSE_PORT) waits for it
 * (busy_timeout). It commits by itself, apart from the changes the group commit has queued: it is in the
 * file (WAL, as the ledger's other commits) when the update resolves.
 */
import type { Database } from 'bun:sqlite'
import type { ChannelSummary, RedemptionEntry, RedemptionTotal } from '../contract'
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
  summarize,
  totalRedemptions,
} from './channel-rows'

const channelStatements = (db: Database) => ({
  get: db.query<ChannelRow<number>, { key: string }>('SELECT * FROM batch_channels WHERE channel_id = $key'),
  list: db.query<ChannelRow<number>, { network: string }>('SELECT * FROM batch_channels WHERE network = $network ORDER BY channel_id'),
  put: db.query<unknown, ChannelRow<number>>(
    `INSERT OR REPLACE INTO batch_channels (${CHANNEL_COLUMNS.join(', ')}) VALUES (${CHANNEL_COLUMNS.map((column) => `$${column}`).join(', ')})`,
  ),
  drop: db.query('DELETE FROM batch_channels WHERE channel_id = $key'),
  sums: db.query<{ network: string; balance: string; charged_cumulative: string; total_claimed: string }, []>(
    'SELECT network, balance, charged_cumulative, total_claimed FROM batch_channels',
  ),
  redeemed: db.query<unknown, ReturnType<typeof redemptionRow>>(
    `INSERT INTO batch_redemptions (at, kind, network, tx_hash, amount_atomic, channels, detail)
     VALUES ($at, $kind, $network, $tx_hash, $amount_atomic, $channels, $detail)`,
  ),
  redemptions: db.query<{ network: string; kind: string; amount_atomic: string; channels: number }, { since: number }>(
    'SELECT network, kind, amount_atomic, channels FROM batch_redemptions WHERE at >= $since',
  ),
})

type ChannelStatements = ReturnType<typeof channelStatements>

/** Reads a channel of `network` and applies `update` to it, in one transaction (run IMMEDIATE by the caller). */
function updateIn(stmts: ChannelStatements, network: string, key: string, update: ChannelUpdate): ChannelUpdateResult {
  const row = stmts.get.get({ key })
  if (row && row.network !== network) throw new Error(`batch channel ${key} is on ${row.network}, not ${network}`)
  const current = row ? channelOf(row) : undefined
  const next = update(current)
  if (next === current) return { channel: current, status: 'unchanged' }
  if (!next) {
    stmts.drop.run({ key })
    return { channel: undefined, status: current ? 'deleted' : 'unchanged' }
  }
  stmts.put.run(rowOf(key, next, network, Number(row?.version ?? 0) + 1, Date.now()))
  return { channel: next, status: 'updated' }
}

/** One network's channels in the ledger file. */
class SqliteChannelStorage implements ChannelStorage {
  constructor(
    private readonly stmts: ChannelStatements,
    private readonly transact: (key: string, update: ChannelUpdate) => ChannelUpdateResult,
    private readonly network: string,
  ) {}

  async get(channelId: string): Promise<Channel | undefined> {
    const row = this.stmts.get.get({ key: channelKey(channelId) })
    return row && row.network === this.network ? channelOf(row) : undefined
  }

  async list(): Promise<Channel[]> {
    return this.stmts.list.all({ network: this.network }).map(channelOf)
  }

  async updateChannel(channelId: string, update: ChannelUpdate): Promise<ChannelUpdateResult> {
    return this.transact(channelKey(channelId), update)
  }
}

/** The channels and redemptions of a ledger file: SqliteLedger's base. */
export class SqliteChannelBook {
  private readonly channelStmts: ChannelStatements
  private readonly storages = new Map<string, ChannelStorage>()
  private readonly updateTx: (network: string, key: string, update: ChannelUpdate) => ChannelUpdateResult

  constructor(protected readonly db: Database) {
    this.channelStmts = channelStatements(db)
    const stmts = this.channelStmts
    const tx = db.transaction((network: string, key: string, update: ChannelUpdate) => updateIn(stmts, network, key, update))
    // IMMEDIATE: the write lock before the read, also when the file is not shared (a read turned write
    // could fail at once with SQLITE_BUSY, where a lock taken first waits for another process).
    this.updateTx = (network, key, update) => tx.immediate(network, key, update)
  }

  channelStorage(network: string): ChannelStorage {
    let storage = this.storages.get(network)
    if (!storage) {
      storage = new SqliteChannelStorage(this.channelStmts, (key, update) => this.updateTx(network, key, update), network)
      this.storages.set(network, storage)
    }
    return storage
  }

  async recordRedemption(entry: RedemptionEntry): Promise<void> {
    this.channelStmts.redeemed.run(redemptionRow(entry))
  }

  async channelSummary(): Promise<ChannelSummary[]> {
    return summarize(this.channelStmts.sums.all())
  }

  async redemptionTotals(since: number): Promise<RedemptionTotal[]> {
    return totalRedemptions(this.channelStmts.redemptions.all({ since }))
  }
}
