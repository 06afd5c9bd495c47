/**
 * Turns charged vouchers into money without a person: on the ledger's leaseholder, every
 * BATCH_CLAIM_SECONDS, for each batch network, it
 *
 * 1. looks on chain for withdrawals the payers asked for (a payer may take back what is unclaimed once
 *    the channel's withdraw delay has passed: the claim interval is at most a quarter of it, config),
 * 2. claims every voucher charged beyond what the escrow has claimed (`claimWithSignature`, up to 100
 *    channels a transaction, signed by the seller's receiver-authorizer),
 * 3. settles whatever the escrow holds claimed and unsettled for the seller (`settle`): also what an
 *    earlier pass claimed and failed to settle, which `claimAndSettle()` would leave, since it settles
 *    only after a claim of its own,
 * 4. refunds channels idle for BATCH_REFUND_IDLE_HOURS (their charges claimed first).
 *
 * Each transaction is recorded in the ledger (`batch_redemptions`), for `payments report`, /metrics and
 * the console. The package's channel manager does the claiming, settling and refunding.
 */
import type { FacilitatorClient } from '@x402/core/http'
import type { BatchSettlementChannelManager, BatchSettlementEvmScheme, Channel, ClaimResult } from '@x402/evm/batch-settlement/server'
import type { PaymentLedger, RedemptionEntry } from '../../ledger'
import type { PaymentOffer } from '../networks'

/** What the redeemer reads of the escrow, per network (CAIP-2). */
export interface EscrowReader {
  /** Claimed and settled totals of a receiver's token (`receivers(receiver, token)`). */
  receiver(network: string, receiver: `0x${string}`, token: `0x${string}`): Promise<{ claimed: bigint; settled: bigint }>
  /** The channels with a withdrawal pending, of those asked. */
  withdrawing(network: string, channelIds: readonly `0x${string}`[]): Promise<Set<string>>
}

export interface RedeemSummary {
  claims: number
  claimedAtomic: bigint
  settles: number
  settledAtomic: bigint
  refunds: number
  withdrawalsSeen: number
  errors: string[]
}

export interface RedeemerParts {
  offers: readonly PaymentOffer[]
  schemes: ReadonlyMap<string, BatchSettlementEvmScheme>
  facilitator: Pick<FacilitatorClient, 'verify' | 'settle'>
  ledger: PaymentLedger
  escrow: EscrowReader
  refundIdleSeconds: number
  now?: () => number
}

type Manager = BatchSettlementChannelManager
const unclaimedOf = (channel: Channel) => BigInt(channel.chargedCumulativeAmount) - BigInt(channel.totalClaimed)

export class Redeemer {
  private timer: ReturnType<typeof setInterval> | undefined
  private running: Promise<RedeemSummary> | undefined
  /** Withdrawals already recorded, so each is recorded once per process. */
  private readonly seen = new Set<string>()
  private readonly now: () => number

  constructor(private readonly parts: RedeemerParts) {
    this.now = parts.now ?? (() => Math.floor(Date.now() / 1000))
  }

  /** One pass over every batch network (a pass already running is joined, not doubled). */
  run(): Promise<RedeemSummary> {
    this.running ??= (async () => {
      const summary: RedeemSummary = {
        claims: 0,
        claimedAtomic: 0n,
        settles: 0,
        settledAtomic: 0n,
        refunds: 0,
        withdrawalsSeen: 0,
        errors: [],
      }
      try {
        for (const offer of this.parts.offers) {
          const scheme = offer.batch && this.parts.schemes.get(offer.network.caip2)
          if (scheme) await this.redeem(offer, scheme, summary)
        }
        return summary
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  /** Passes every `intervalSeconds` while `leading()` (one redeemer among instances sharing a ledger). */
  start(intervalSeconds: number, onError: (error: unknown) => void, leading: () => boolean = () => true): void {
    this.timer = setInterval(() => {
      if (leading())
        void this.run()
          .then((summary) => summary.errors.forEach((error) => onError(error)))
          .catch(onError)
    }, intervalSeconds * 1000)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private async redeem(offer: PaymentOffer, scheme: BatchSettlementEvmScheme, summary: RedeemSummary): Promise<void> {
    const network = offer.network.caip2
    const manager = scheme.createChannelManager(this.parts.facilitator as FacilitatorClient, network, offer.network.asset)
    const step = async (what: string, action: () => Promise<void>) => {
      try {
        await action()
      } catch (error) {
        summary.errors.push(`${offer.network.name} ${what}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    await step('withdrawals', () => this.watchWithdrawals(network, scheme, summary))
    await step('claim', () => this.claim(manager, network, scheme, summary))
    await step('settle', async () => {
      const owed = await this.parts.escrow.receiver(network, offer.payTo, offer.network.asset)
      if (owed.claimed <= owed.settled) return
      const settled = await manager.settle()
      await this.record({
        kind: 'settle',
        network,
        txHash: settled.transaction,
        amountAtomic: (owed.claimed - owed.settled).toString(),
        channels: 0,
      })
      summary.settles++
      summary.settledAtomic += owed.claimed - owed.settled
    })
    if (this.parts.refundIdleSeconds > 0) await step('refund', () => this.refundIdle(manager, network, scheme, summary))
  }

  /**
   * Claims every charged voucher, 100 channels a transaction. The escrow refuses a whole batch for one bad
   * row (a channel whose deposit was withdrawn, say): then each channel is claimed alone, so one cannot
   * hold back the others' money, and the one that fails is named.
   */
  private async claim(manager: Manager, network: string, scheme: BatchSettlementEvmScheme, summary: RedeemSummary): Promise<void> {
    const storage = scheme.getStorage()
    const owing = (await storage.list()).filter((channel) => unclaimedOf(channel) > 0n)
    if (owing.length === 0) return
    let claims: ClaimResult[] = []
    try {
      claims = await manager.claim({ maxClaimsPerBatch: 100 })
    } catch {
      for (const channel of owing) {
        const alone = (channels: Channel[]) => channels.filter((candidate) => candidate.channelId === channel.channelId)
        try {
          claims.push(...(await manager.claim({ selectClaimChannels: alone })))
        } catch (error) {
          summary.errors.push(`claim of channel ${channel.channelId}: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }
    // What the escrow's claimed totals rose by, channel by channel (vouchers charged meanwhile do not count).
    const after = new Map((await storage.list()).map((channel) => [channel.channelId, channel]))
    let claimed = 0n
    for (const channel of owing) {
      const now = after.get(channel.channelId)
      if (now) claimed += BigInt(now.totalClaimed) - BigInt(channel.totalClaimed)
    }
    for (const [index, claim] of claims.entries()) {
      // The amount is the pass's whole, on its first transaction (the manager counts vouchers, not their sum).
      await this.record({
        kind: 'claim',
        network,
        txHash: claim.transaction,
        amountAtomic: index === 0 ? claimed.toString() : '0',
        channels: claim.vouchers,
      })
      summary.claims++
    }
    summary.claimedAtomic += claimed
  }

  /**
   * Refunds the unclaimed rest of each channel idle for BATCH_REFUND_IDLE_HOURS, one channel at a time (one
   * refused does not stop the rest), and drops the record of a channel with nothing left in it.
   */
  private async refundIdle(manager: Manager, network: string, scheme: BatchSettlementEvmScheme, summary: RedeemSummary): Promise<void> {
    const storage = scheme.getStorage()
    const now = Date.now()
    const idle = (await storage.list()).filter(
      (channel) =>
        now - channel.lastRequestTimestamp >= this.parts.refundIdleSeconds * 1000 &&
        !(channel.pendingRequest && channel.pendingRequest.expiresAt > now),
    )
    for (const channel of idle) {
      const rest = BigInt(channel.balance) - BigInt(channel.chargedCumulativeAmount)
      if (rest <= 0n) {
        if (channel.chargedCumulativeAmount === channel.totalClaimed)
          await storage.updateChannel(channel.channelId, (current) =>
            current && current.lastRequestTimestamp === channel.lastRequestTimestamp ? undefined : current,
          )
        continue
      }
      try {
        for (const refund of await manager.refund([channel.channelId])) {
          await this.record({
            kind: 'refund',
            network,
            txHash: refund.transaction,
            amountAtomic: rest.toString(),
            channels: 1,
            detail: refund.channel,
          })
          summary.refunds++
        }
      } catch (error) {
        summary.errors.push(`refund of channel ${channel.channelId}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  /** Withdrawals asked on chain for channels holding unclaimed charges: recorded once each (the claim below takes their charges). */
  private async watchWithdrawals(network: string, scheme: BatchSettlementEvmScheme, summary: RedeemSummary): Promise<void> {
    const owing = (await scheme.getStorage().list()).filter((channel) => unclaimedOf(channel) > 0n)
    if (owing.length === 0) return
    const withdrawing = await this.parts.escrow.withdrawing(
      network,
      owing.map((channel) => channel.channelId as `0x${string}`),
    )
    for (const channel of owing) {
      if (!withdrawing.has(channel.channelId.toLowerCase()) || this.seen.has(channel.channelId)) continue
      this.seen.add(channel.channelId)
      await this.record({
        kind: 'withdraw_seen',
        network,
        amountAtomic: unclaimedOf(channel).toString(),
        channels: 1,
        detail: channel.channelId,
      })
      summary.withdrawalsSeen++
    }
  }

  private record(entry: Omit<RedemptionEntry, 'at'>): Promise<void> {
    return this.parts.ledger.recordRedemption({ at: this.now(), ...entry })
  }
}
