/**
 * `batch-settlement` beside `exact` through one Settler. A batch payment goes through `@x402/core`'s
 * `x402ResourceServer` with `@x402/evm`'s batch server scheme registered per network: its hooks check the
 * voucher against the channel (kept in the ledger, channel-storage in ledger/), reserve the channel for
 * the request, and charge it on settle without a chain call; a deposit and a refund go on to the
 * facilitator. The voucher cryptography and the channel rules are the package's; this file only routes.
 *
 * The scheme keeps each request's state keyed by the payload object, so verify, settle and cancel get the
 * same `proof.raw` object (SettlementInput is built once per request, gate/paid-work.ts).
 */
import type { FacilitatorClient } from '@x402/core/http'
import { x402ResourceServer } from '@x402/core/server'
import type { PaymentRequirements, SettleResponse } from '@x402/core/types'
import { BatchSettlementEvmScheme, type ChannelStorage } from '@x402/evm/batch-settlement/server'
import { privateKeyToAccount } from 'viem/accounts'
import { FacilitatorSettler } from '../facilitator/facilitator-settler'
import type { FacilitatorHealth } from '../facilitator/facilitator-health'
import type { PaymentOffer } from '../networks'
import type { PaymentClaim, RedemptionEntry } from '../../ledger'
import { payerOf } from '../gate/proof'
import type { SettleOutcome, SettlementInput, Settler, VerifyOutcome } from '../settler'
import { batchAccept } from './batch-terms'
import { batchKeyOf } from './batch-proof'

/** The scheme's reasons its buyer's client resyncs from (the 402's `error` must be exactly one of them). */
const CORRECTABLE = new Set([
  'invalid_batch_settlement_evm_cumulative_amount_mismatch',
  'invalid_batch_settlement_evm_cumulative_below_claimed',
])
const STATE_UNAVAILABLE = 'invalid_batch_settlement_evm_verification_state_unavailable'

export interface BatchSetup {
  /** The offers with `batch` set: one scheme each, for its network and payee. */
  offers: readonly PaymentOffer[]
  /** The seller's receiver-authorizer key: signs claims and refunds (BATCH_RECEIVER_AUTHORIZER_KEY). */
  authorizerKey: `0x${string}`
  /** A network's channels (by CAIP-2 id), shared by every instance on the ledger. */
  storage(network: string): ChannelStorage
  /** The facilitator that makes deposits, claims, settlements and refunds: in process (self) or over HTTP. */
  facilitator: Pick<FacilitatorClient, 'verify' | 'settle'>
}

/** The package's resource server with a batch scheme per offered network, and those schemes by network. */
export function createBatchServer(setup: BatchSetup): { server: x402ResourceServer; schemes: Map<string, BatchSettlementEvmScheme> } {
  // Never initialized, so never asked what the facilitator supports: the schemes are registered here, and
  // verify and settle go to the one facilitator given.
  // The facilitator's methods are called on it (an HTTP client's live on its prototype, not as own fields).
  const facilitator = setup.facilitator
  const server = new x402ResourceServer({
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  })
  const schemes = new Map<string, BatchSettlementEvmScheme>()
  const authorizer = privateKeyToAccount(setup.authorizerKey)
  for (const offer of setup.offers) {
    if (!offer.batch) continue
    const scheme = new BatchSettlementEvmScheme(offer.payTo, {
      storage: setup.storage(offer.network.caip2),
      receiverAuthorizerSigner: authorizer,
      withdrawDelay: offer.batch.withdrawDelaySeconds,
      enforceMinDeposit: true,
    })
    server.register(offer.network.caip2, scheme)
    schemes.set(offer.network.caip2, scheme)
  }
  return { server, schemes }
}

/** Exact payments to their settler, batch payments through the resource server's hooks. */
export class BatchRouting implements Settler {
  readonly mode: FacilitatorSettler['mode']
  private readonly batch: FacilitatorSettler

  constructor(
    private readonly exact: FacilitatorSettler,
    private readonly server: x402ResourceServer,
    private readonly schemes: ReadonlyMap<string, BatchSettlementEvmScheme>,
    health?: FacilitatorHealth,
    /** Records a deposit or a refund made on chain (the ledger's `batch_redemptions`). */
    private readonly onChain?: (entry: Omit<RedemptionEntry, 'at'>) => Promise<void>,
  ) {
    this.mode = exact.mode
    // The resource server answers as a facilitator client does (VerifyResponse, SettleResponse or SettleError),
    // so the exact settler's reading of outcomes (pending, failed, unreachable) applies to it unchanged.
    const viaServer = {
      verify: (payload: Parameters<FacilitatorClient['verify']>[0], requirements: PaymentRequirements) =>
        server.verifyPayment(payload, requirements),
      settle: (payload: Parameters<FacilitatorClient['settle']>[0], requirements: PaymentRequirements) =>
        server.settlePayment(payload, requirements).catch((error: unknown) => refusedBeforeChain(error, requirements)),
    }
    this.batch = new FacilitatorSettler(exact.mode, viaServer, health)
  }

  async verify(input: SettlementInput): Promise<VerifyOutcome> {
    if (!input.proof.batch) return this.exact.verify(input)
    const outcome = await this.batch.verify(input)
    if (outcome.ok) return outcome
    // The scheme could not read or write the channel: the ledger's trouble (503), not the buyer's proof.
    if (outcome.reason === STATE_UNAVAILABLE) return { ...outcome, unavailable: true, reason: 'ledger_unavailable' }
    if (!CORRECTABLE.has(outcome.reason)) return outcome
    // The buyer's voucher does not continue the channel as this seller knows it: the 402 says where it stands.
    const correction = await this.correct(input, outcome.reason).catch(() => undefined)
    return correction ? { ...outcome, correction } : outcome
  }

  async settle(input: SettlementInput): Promise<SettleOutcome> {
    const batch = input.proof.batch
    if (!batch) return this.exact.settle(input)
    // A refund of "all": the unclaimed rest as the channel stands before it (the escrow pays no more).
    const channel = batch.type === 'refund' ? await this.channelOf(input).catch(() => undefined) : undefined
    const rest = channel ? BigInt(channel.balance) - BigInt(channel.chargedCumulativeAmount) : 0n
    let outcome = await this.batch.settle(input)
    // A voucher is charged in the ledger, not on chain: whatever the settle said, the channel knows.
    if (batch.type === 'voucher' && outcome.status !== 'settled') outcome = await this.voucherOutcome(input, outcome)
    if (outcome.status === 'settled' && outcome.receipt.transaction && batch.type !== 'voucher') {
      const network = input.terms.network.caip2
      const amountAtomic = (batch.deposit?.amount ?? batch.refundAmount ?? rest).toString()
      await this.onChain?.({
        kind: batch.type,
        network,
        txHash: outcome.receipt.transaction,
        amountAtomic,
        channels: 1,
        detail: batch.channelId,
      }).catch(() => {})
    }
    return outcome
  }

  /** Frees the channel's reservation for a request whose work failed (else it holds until its TTL, as `channel_busy`). */
  async cancel(input: SettlementInput): Promise<void> {
    if (!input.proof.batch) return
    await this.server.createPaymentCancellationDispatcher(input.proof.raw, requirementsOf(input)).cancel({ reason: 'handler_failed' })
  }

  /**
   * A voucher whose charge did not come back as settled (the channel's store failed during it, the
   * package's hooks only warn): charged if the channel's total reached its ceiling, else nothing was.
   */
  private async voucherOutcome(input: SettlementInput, outcome: SettleOutcome): Promise<SettleOutcome> {
    const charged = await this.chargedBefore(input).catch(() => false)
    if (!charged) return outcome.status === 'pending' ? { status: 'failed', reason: outcome.reason } : outcome
    return {
      status: 'settled',
      receipt: { success: true, transaction: '', network: input.terms.network.caip2, payer: payerOf(input.proof) },
    }
  }

  /**
   * What a served voucher, a refund or a deposit parked as pending came to, for the reconciler (which reads
   * the token only for ERC-3009 nonces): a voucher by its channel's total, a refund as failed (it charged
   * nothing whether or not it landed; its buyer asks again). Undefined: not a batch key.
   */
  async verdictOf(claim: PaymentClaim): Promise<'settled' | 'failed' | 'pending' | undefined> {
    const held = batchKeyOf(claim.key)
    if (!held) return undefined
    if (held.refund) return 'failed'
    const channel = await this.schemes.get(held.network)?.getStorage().get(held.channelId)
    return channel && BigInt(channel.chargedCumulativeAmount) >= held.ceiling ? 'settled' : 'failed'
  }

  /** A voucher whose ceiling the channel has charged already (each charge raises it to exactly one voucher's ceiling). */
  async chargedBefore(input: SettlementInput): Promise<boolean> {
    const channel = await this.channelOf(input)
    return channel !== undefined && BigInt(channel.chargedCumulativeAmount) >= input.proof.batch!.maxClaimable
  }

  private async channelOf(input: SettlementInput) {
    const batch = input.proof.batch
    const scheme = this.schemes.get(input.terms.network.caip2)
    return batch && scheme ? scheme.getStorage().get(batch.channelId) : undefined
  }

  /** The corrective 402's batch entry: the channel's state (as the scheme keeps it) in `extra`. */
  async correct(input: SettlementInput, reason: string): Promise<PaymentRequirements | undefined> {
    const required = await this.server.createPaymentRequiredResponse(
      [requirementsOf(input)],
      { url: input.resourceUrl, description: input.route.summary, mimeType: 'application/json' },
      reason,
      undefined,
      undefined,
      input.proof.raw,
    )
    return required.accepts[0]
  }
}

const requirementsOf = (input: SettlementInput): PaymentRequirements => batchAccept(input.terms, input.terms.batch!)

/**
 * The scheme's server refuses a settlement it cannot make (a refund with nothing left, a voucher base
 * that moved) by throwing its reason code before the facilitator is called: nothing moved, so it is a
 * definite failure, not an unknown outcome.
 */
function refusedBeforeChain(error: unknown, requirements: PaymentRequirements): SettleResponse {
  const reason = /\binvalid_batch_settlement_evm_[a-z_]+\b/.exec(error instanceof Error ? error.message : String(error))?.[0]
  if (!reason) throw error
  return { success: false, errorReason: reason, transaction: '', network: requirements.network }
}
