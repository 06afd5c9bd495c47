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
  // One read of the ledger per scrape for all the gauges (each collects on its own); a ledger that does
  // not answer leaves them without values, not /metrics without an answer.
  let read: { at: number; channels: Promise<ChannelSummary[]>; actions: Promise<RedemptionTotal[]> } | undefined
  const current = () => {
    if (!source) return undefined
    if (!read || Date.now() - read.at > 1_000) {
      const empty = () => []
      read = { at: Date.now(), channels: source.channels().catch(empty), actions: source.actions().catch(empty) }
    }
    return read
  }
  const perNetwork = (name: string, help: string, value: (summary: ChannelSummary) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['network'],
      registers,
      async collect() {
        const held = current()
        if (!held) return
        this.reset()
        for (const summary of await held.channels) this.set({ network: summary.network }, value(summary))
      },
    })
  perNetwork('x402_batch_channels', 'Batch-settlement channels on record (refunded ones are dropped).', (s) => s.channels)
  perNetwork(
    'x402_batch_deposited_usd',
    "USD still the buyers' in those channels (deposited less claimed), as last seen on chain.",
    (s) => Number(BigInt(s.balance) - BigInt(s.claimed)) / 1e6,
  )
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
      const held = current()
      if (!held) return
      this.reset()
      for (const total of await held.actions) this.set({ network: total.network, kind: total.kind }, total.count)
    },
  })
  return (watched: BatchSource) => {
    source = watched
  }
}
