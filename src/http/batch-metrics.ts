import type { ChannelSummary, RedemptionTotal } from '../ledger'

/** What the batch gauges read, at scrape time, from the ledger (shared by every instance on it). */
export interface BatchSource {
  channels(): Promise<ChannelSummary[]>
  actions(): Promise<RedemptionTotal[]>
}

/**
 * BATCH_NETWORKS: the batch-settlement channels as the ledger holds them (per network) and the chain
 * actions recorded (claims, settlements, refunds, deposits, withdrawals seen). No values without batch.
 * Returns where they read.
 */
export function batchGauges(Gauge: typeof import('prom-client').Gauge, registers: import('prom-client').Registry[]) {
  let source: BatchSource | undefined
  const perNetwork = (name: string, help: string, read: (summary: ChannelSummary) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['network'],
      registers,
      async collect() {
        if (!source) return
        this.reset()
        for (const summary of await source.channels()) this.set({ network: summary.network }, read(summary))
      },
    })
  perNetwork('x402_batch_channels', 'Batch-settlement channels on record (refunded ones are dropped).', (s) => s.channels)
  perNetwork('x402_batch_deposited_usd', 'USD the buyers hold in those channels, as last seen on chain.', (s) => Number(s.balance) / 1e6)
  perNetwork('x402_batch_charged_usd', 'USD charged to vouchers in those channels.', (s) => Number(s.charged) / 1e6)
  perNetwork(
    'x402_batch_unclaimed_usd',
    'Exposure: USD charged to vouchers and not yet claimed on chain (a payer may withdraw it after the withdraw delay if it stays unclaimed).',
    (s) => Number(s.unclaimed) / 1e6,
  )
  perNetwork('x402_batch_unclaimed_channels', 'Channels with charges not yet claimed.', (s) => s.unclaimedChannels)
  new Gauge({
    name: 'x402_batch_chain_actions',
    help: 'Batch-settlement transactions recorded in the ledger since it began, by network and kind (deposit, claim, settle, refund; withdraw_seen: a payer asked to withdraw).',
    labelNames: ['network', 'kind'],
    registers,
    async collect() {
      if (!source) return
      this.reset()
      for (const total of await source.actions()) this.set({ network: total.network, kind: total.kind }, total.count)
    },
  })
  return (watched: BatchSource) => {
    source = watched
  }
}
