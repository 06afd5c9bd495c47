/** One paid request inside the gate: its ledger key and claim, the events it records, its receipt. */
import { redact } from '../core/redact'
import type { ApiError } from '../core/errors'
import type { Authorized, GateContext, GateOptions, PaidRequest } from './gate-contract'
import type { PaymentClaim, PaymentEvent, PaymentEventKind } from '../ledger/contract'
import type { Receipt } from './settler'

export class Payment {
  /** The ledger's key: network, asset, payer and nonce (one authorization buys one request). */
  readonly key: string
  readonly claim: PaymentClaim

  constructor(
    readonly auth: Authorized,
    private readonly options: Pick<GateOptions, 'ledger' | 'metrics' | 'settler'>,
    private readonly now: () => number,
  ) {
    const { req, terms, payer } = auth
    const authorization = auth.proof.authorization
    this.key = `${terms.network.caip2}:${terms.network.asset}:${authorization.from}:${authorization.nonce}`.toLowerCase()
    this.claim = {
      key: this.key,
      network: terms.network.caip2,
      payer,
      nonce: authorization.nonce.toLowerCase(),
      routeId: req.route.id,
      fingerprint: req.fingerprint,
      amountAtomic: terms.amountAtomic.toString(),
      requestId: req.requestId,
      validBefore: authorization.validBefore,
    }
  }

  get req(): PaidRequest {
    return this.auth.req
  }

  /** Records a payment event in the ledger and the metrics. */
  readonly emit = (event: PaymentEventKind, extra: { txHash?: string; detail?: string } = {}): void => {
    const e = this.event(event, extra)
    this.options.ledger.record(e)
    this.options.metrics?.paymentEvent(e)
  }

  /** A refusal before any work (the verification failed): counted in the metrics, nothing recorded (PaymentLedger.forget). */
  readonly refused = (detail: string): void => {
    this.options.metrics?.paymentEvent(this.event('failed', { detail }))
  }

  private event(event: PaymentEventKind, extra: { txHash?: string; detail?: string }): PaymentEvent {
    const claim = this.claim
    return {
      event,
      at: this.now(),
      key: this.key,
      requestId: claim.requestId,
      routeId: claim.routeId,
      payer: this.auth.payer,
      amountAtomic: claim.amountAtomic,
      nonce: claim.nonce,
      network: claim.network,
      ...(extra.txHash ? { txHash: extra.txHash } : {}),
      // A reason may quote a facilitator or a library: the ledger keeps it redacted, as every way out does.
      ...(extra.detail !== undefined ? { detail: redact(extra.detail) } : {}),
    }
  }

  /** The receipt of an answer released before its settlement (deferred): pending, and where to find the outcome. */
  pendingReceipt(artifactPath: string): { receipt: Receipt } {
    return {
      receipt: {
        ...this.settledReceipt(''),
        extensions: {
          settlement: {
            status: 'pending',
            lookup:
              'Send the same request with the same proof again (free): settlement_pending until the transfer is on chain, then this answer with its transaction.',
            artifact: artifactPath,
          },
        },
      },
    }
  }

  /**
   * The settlement receipt of a transaction, the network named as the proof's x402 version names it. In local
   * mode (verified offline, nothing on chain) it has an empty transaction, as MCP's has, so that a client
   * reads a receipt in every mode; none otherwise without a transaction.
   */
  receipt(transaction: string | null | undefined): { receipt?: Receipt } {
    if (transaction) return { receipt: this.settledReceipt(transaction) }
    return this.options.settler.mode === 'local' ? { receipt: this.settledReceipt('') } : {}
  }

  /** The network paid on, as the proof's x402 version names it (a v1 name, or a CAIP-2 id). */
  get network(): string {
    const { proof, terms } = this.auth
    return proof.x402Version === 1 ? (terms.network.v1 ?? terms.network.caip2) : terms.network.caip2
  }

  private settledReceipt(transaction: string): Receipt {
    return { success: true, transaction, network: this.network, payer: this.auth.proof.authorization.from }
  }
}

/** The 402 of a payment that could not be settled: the answer is not served, nothing was charged. */
export function settlementFailed(context: GateContext, req: PaidRequest, reason: string): ApiError {
  return context.refuse(
    req,
    'settlement_failed',
    'The payment could not be settled, so the answer is not served; nothing was charged. Sign a new payment (or fund the payer) and retry.',
    { reason },
  )
}
