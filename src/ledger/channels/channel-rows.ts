/**
 * x402 batch-settlement's channels as rows of `batch_channels` and back (both engines), and the sums the
 * reports read: every Channel field kept exactly (amounts stay decimal strings; an optional field absent
 * when its column is NULL).
 */
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server'
import type { ChannelSummary, RedemptionEntry, RedemptionKind, RedemptionTotal } from '../contract'
import { BATCH_CHANNELS, type BATCH_REDEMPTIONS, type SharedColumn } from '../tables'

export type { Channel, ChannelStorage }
export type ChannelUpdate = Parameters<ChannelStorage['updateChannel']>[1]
export type ChannelUpdateResult = Awaited<ReturnType<ChannelStorage['updateChannel']>>

/**
 * A row of `batch_channels`. SQLite returns its integers as numbers; PostgreSQL its BIGINTs as text.
 */
export type ChannelRow<Big extends number | string = number | string> = {
  channel_id: string
  network: string
  receiver: string
  token: string
  payer: string
  config: string
  charged_cumulative: string
  signed_max_claimable: string
  signature: string
  balance: string
  total_claimed: string
  refund_nonce: string
  withdraw_requested_at: Big
  onchain_synced_ms: Big | null
  last_request_ms: Big
  pending_id: string | null
  pending_max_claimable: string | null
  pending_expires_ms: Big | null
  version: Big
  updated_at: Big
}

type Same<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false
type Holds<Claim extends true> = Claim
/** A column declared in BATCH_CHANNELS and missing here, or the other way round, fails to compile. */
export type ChannelRowIsTheTable = Holds<Same<keyof ChannelRow, SharedColumn<typeof BATCH_CHANNELS>>>

/** A channel id as x402 writes it (bytes32 hex), in lower case: the key. Anything else is refused, as the package's own storages do. */
export function channelKey(channelId: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(channelId)) throw new Error('invalid_batch_settlement_evm_channel_id_invalid')
  return channelId.toLowerCase()
}

/** The channel a row holds. */
export function channelOf(row: ChannelRow): Channel {
  const channel: Channel = {
    channelId: row.channel_id,
    channelConfig: JSON.parse(row.config) as Channel['channelConfig'],
    chargedCumulativeAmount: row.charged_cumulative,
    signedMaxClaimable: row.signed_max_claimable,
    signature: row.signature,
    balance: row.balance,
    totalClaimed: row.total_claimed,
    withdrawRequestedAt: Number(row.withdraw_requested_at),
    refundNonce: Number(row.refund_nonce),
    lastRequestTimestamp: Number(row.last_request_ms),
  }
  if (row.onchain_synced_ms !== null) channel.onchainSyncedAt = Number(row.onchain_synced_ms)
  if (row.pending_id !== null)
    channel.pendingRequest = {
      pendingId: row.pending_id,
      signedMaxClaimable: row.pending_max_claimable ?? '',
      expiresAt: Number(row.pending_expires_ms ?? 0),
    }
  return channel
}

/**
 * The row of `channel` under `key` (its id in lower case), on `network`, at its `version`. A channel whose
 * id is not the key it was updated under is refused: it would be stored as another channel.
 */
export function rowOf(key: string, channel: Channel, network: string, version: number, now: number): ChannelRow<number> {
  if (typeof channel.channelId !== 'string' || channel.channelId.toLowerCase() !== key)
    throw new Error(`batch channel ${key}: the update returned the channel ${String(channel.channelId)}`)
  const config = channel.channelConfig
  const pending = channel.pendingRequest
  return {
    channel_id: key,
    network,
    receiver: String(config.receiver).toLowerCase(),
    token: String(config.token).toLowerCase(),
    payer: String(config.payer).toLowerCase(),
    config: JSON.stringify(config),
    charged_cumulative: channel.chargedCumulativeAmount,
    signed_max_claimable: channel.signedMaxClaimable,
    signature: channel.signature,
    balance: channel.balance,
    total_claimed: channel.totalClaimed,
    refund_nonce: String(channel.refundNonce),
    withdraw_requested_at: channel.withdrawRequestedAt,
    onchain_synced_ms: channel.onchainSyncedAt ?? null,
    last_request_ms: channel.lastRequestTimestamp,
    pending_id: pending?.pendingId ?? null,
    pending_max_claimable: pending?.signedMaxClaimable ?? null,
    pending_expires_ms: pending?.expiresAt ?? null,
    version,
    updated_at: Math.floor(now / 1000),
  }
}

/** The columns of `batch_channels`, as declared (the channel id first), for the engines' statements. */
export const CHANNEL_COLUMNS: readonly (keyof ChannelRow)[] = BATCH_CHANNELS.columns.map((column) => column.name)

/** A redemption as its `batch_redemptions` row (a column renamed there fails to compile here). */
export const redemptionRow = (
  entry: RedemptionEntry,
): Record<Exclude<SharedColumn<typeof BATCH_REDEMPTIONS>, 'seq'>, string | number | null> => ({
  at: entry.at,
  kind: entry.kind,
  network: entry.network,
  tx_hash: entry.txHash ?? null,
  amount_atomic: entry.amountAtomic,
  channels: entry.channels,
  detail: entry.detail ?? null,
})

type Sums = Omit<ChannelSummary, 'network' | 'balance' | 'charged' | 'claimed' | 'unclaimed'> & {
  balance: bigint
  charged: bigint
  claimed: bigint
  unclaimed: bigint
}

/** Per network, the channels' sums, added exactly (uint128 amounts pass 2^53 and 2^63). */
export function summarize(
  rows: Iterable<Pick<ChannelRow, 'network' | 'balance' | 'charged_cumulative' | 'total_claimed'>>,
): ChannelSummary[] {
  const byNetwork = new Map<string, Sums>()
  for (const row of rows) {
    const sums = byNetwork.get(row.network) ?? { channels: 0, unclaimedChannels: 0, balance: 0n, charged: 0n, claimed: 0n, unclaimed: 0n }
    const charged = BigInt(row.charged_cumulative)
    const claimed = BigInt(row.total_claimed)
    sums.channels += 1
    if (charged > claimed) {
      sums.unclaimedChannels += 1
      sums.unclaimed += charged - claimed
    }
    sums.balance += BigInt(row.balance)
    sums.charged += charged
    sums.claimed += claimed
    byNetwork.set(row.network, sums)
  }
  return [...byNetwork]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([network, sums]) => ({
      ...sums,
      network,
      balance: sums.balance.toString(),
      charged: sums.charged.toString(),
      claimed: sums.claimed.toString(),
      unclaimed: sums.unclaimed.toString(),
    }))
}

/** Per network and kind, the redemptions' count, amount and channels, added exactly. */
export function totalRedemptions(
  rows: Iterable<{ network: string; kind: string; amount_atomic: string; channels: number }>,
): RedemptionTotal[] {
  const totals = new Map<string, RedemptionTotal & { sum: bigint }>()
  for (const row of rows) {
    const id = `${row.network}\u0000${row.kind}`
    const total = totals.get(id) ?? {
      network: row.network,
      kind: row.kind as RedemptionKind,
      count: 0,
      amountAtomic: '0',
      channels: 0,
      sum: 0n,
    }
    total.count += 1
    total.sum += BigInt(row.amount_atomic)
    total.channels += Number(row.channels)
    totals.set(id, total)
  }
  return [...totals.values()]
    .sort((left, right) => left.network.localeCompare(right.network) || left.kind.localeCompare(right.kind))
    .map(({ sum, ...total }) => ({ ...total, amountAtomic: sum.toString() }))
}
