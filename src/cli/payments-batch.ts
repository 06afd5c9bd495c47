/**
 * The batch-settlement part of `payments` (BATCH_NETWORKS): `payments claim` claims and settles the
 * charged vouchers now (what the leaseholder does every BATCH_CLAIM_SECONDS), and `payments report`'s
 * section on the channels (what buyers hold, what is charged and not yet claimed) and the chain actions.
 */
import { atomicToUsd as usd } from '../core'
import type { Config } from '../config'
import type { ChannelSummary, PaymentLedger, RedemptionTotal } from '../ledger'
import type { NetworkName } from '../payments'
import { alignedColumns } from './columns'

export type LedgerSource = { postgres: string } | { sqlite: string }

/** The service's ledger as a ledger object (PostgreSQL beside running instances: every change is guarded). */
export async function openLedger(source: LedgerSource): Promise<{ ledger: PaymentLedger; close(): Promise<void> }> {
  if ('postgres' in source) {
    const [{ Postgres }, { PostgresLedger }] = await Promise.all([import('../postgres/client'), import('../ledger/postgres')])
    const pg = new Postgres(source.postgres)
    const ledger = new PostgresLedger(pg, 'payments-cli')
    return { ledger, close: async () => (await ledger.close(), await pg.close()) }
  }
  const { SqliteLedger } = await import('../ledger/sqlite')
  const ledger = new SqliteLedger(source.sqlite)
  return { ledger, close: async () => ledger.close() }
}

export interface BatchReport {
  channels: ChannelSummary[]
  actions: RedemptionTotal[]
}

export async function readBatchReport(source: LedgerSource, since: number): Promise<BatchReport> {
  const { ledger, close } = await openLedger(source)
  try {
    return { channels: await ledger.channelSummary(), actions: await ledger.redemptionTotals(since) }
  } finally {
    await close()
  }
}

/** The report's batch-settlement section; empty when no channel or chain action is on record. */
export function formatBatch(report: BatchReport, sinceLabel: string): string {
  if (report.channels.length === 0 && report.actions.length === 0) return ''
  const out = [
    '',
    'Batch-settlement channels now (USD; unclaimed = charged to vouchers, not yet claimed on chain: claimed next pass).',
    'Answers paid with vouchers count in the revenue above as paid, not as settled: they reach the chain when claimed.',
    '',
  ]
  const rows = [['network', 'channels', 'deposited', 'charged', 'claimed', 'unclaimed', 'unclaimed channels']]
  for (const channel of report.channels)
    rows.push([
      channel.network,
      String(channel.channels),
      usd(BigInt(channel.balance)),
      usd(BigInt(channel.charged)),
      usd(BigInt(channel.claimed)),
      usd(BigInt(channel.unclaimed)),
      String(channel.unclaimedChannels),
    ])
  out.push(alignedColumns(rows, (column) => column > 0))
  out.push('', `Batch-settlement chain actions ${sinceLabel}`, '')
  const actions = [['network', 'action', 'transactions', 'USD', 'channels']]
  for (const action of report.actions)
    actions.push([action.network, action.kind, String(action.count), usd(BigInt(action.amountAtomic)), String(action.channels)])
  out.push(report.actions.length > 0 ? alignedColumns(actions, (column) => column > 1) : 'none')
  return `${out.join('\n')}\n`
}

/** `payments claim`: one redeemer pass now, over the service's own facilitator (self mode: its settler key). */
export async function claimNow(config: Readonly<Config>, source: LedgerSource): Promise<{ text: string; failed: boolean }> {
  if (!config.batch) return { text: 'Batch-settlement is not offered (BATCH_NETWORKS is not set): nothing to claim.\n', failed: false }
  const batch = config.batch
  const offers = config.offers.filter((offer) => offer.batch)
  const facilitator = await facilitatorOf(config, offers)
  const [{ createBatchServer }, { Redeemer }, { createEscrowReader }] = await Promise.all([
    import('../payments/batch/batch-settler'),
    import('../payments/batch/redeemer'),
    import('../payments/chain/escrow-reader'),
  ])
  const { ledger, close } = await openLedger(source)
  try {
    const storage = (network: string) => ledger.channelStorage(network)
    const { schemes } = createBatchServer({ offers, authorizerKey: batch.authorizerKey, storage, facilitator })
    const escrow = createEscrowReader(config.reconcileRpc)
    const summary = await new Redeemer({ offers, schemes, facilitator, ledger, escrow, refundIdleSeconds: batch.refundIdleSeconds }).run()
    const text =
      `Claimed ${usd(summary.claimedAtomic)} USD in ${summary.claims} transaction(s), settled ${usd(summary.settledAtomic)} USD in ${summary.settles}, ` +
      `refunded ${summary.refunds} idle channel(s); ${summary.withdrawalsSeen} withdrawal(s) newly seen.\n` +
      summary.errors.map((error) => `error: ${error}\n`).join('') // redacted as every output is (redacted-output.ts)
    return { text, failed: summary.errors.length > 0 }
  } finally {
    await close()
  }
}

async function facilitatorOf(config: Readonly<Config>, offers: Config['offers']) {
  if (config.paymentMode === 'facilitator') {
    const { connectFacilitator } = await import('../payments/facilitator/facilitator-client')
    return (await connectFacilitator(config)).client
  }
  const { createEvmFacilitator } = await import('../payments/chain/evm-facilitator')
  const networks = offers.map(({ network }) => ({
    network: network.name as NetworkName,
    rpcUrl: config.rpc[network.name as NetworkName]!.url,
  }))
  const { facilitator } = createEvmFacilitator({
    networks,
    privateKey: config.settlerPrivateKey!,
    batchNetworks: networks.map(({ network }) => network),
  })
  return facilitator
}
