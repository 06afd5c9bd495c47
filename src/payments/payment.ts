/** One paid request inside the gate: its ledger key and claim, the events it records, its receipt. */
import type { ApiError } from '../core/errors'
import type { Authorized, GateContext, GateOptions, PaidRequest } from './gate-types'
import type { PaymentClaim, PaymentEvent, PaymentEventKind } from './ledger'
import type { Receipt } from './settlement'

export class Payment {
  /** The ledger's key: network, asset, payer and nonce (one authorization buys one request). */
  readonly key: string
  readonly claim: PaymentClaim

  constructor(
    readonly auth: Authorized,
    private readonly o: Pick<GateOptions, 'ledger' | 'metrics'>,
    private readonly now: () => number,
  ) {
    const { req, terms, payer } = auth
    const a = auth.proof.authorization
    this.key = `${terms.network.caip2}:${terms.network.asset}:${a.from}:${a.nonce}`.toLowerCase()
    this.claim = {
      key: this.key,
      network: terms.network.caip2,
      payer,
      nonce: a.nonce.toLowerCase(),
      routeId: req.route.id,
      fingerprint: req.fingerprint,
      amountAtomic: terms.amountAtomic.toString(),
      requestId: req.requestId,
      validBefore: a.validBefore,
    }
  }

  get req(): PaidRequest {
    return this.auth.req
  }

  /** Records a payment event in the ledger and the metrics. */
  readonly emit = (event: PaymentEventKind, extra: { txHash?: string; detail?: string } = {}): void => {
    const c = this.claim
    const e: PaymentEvent = {
      event,
      at: this.now(),
      key: this.key,
      requestId: c.requestId,
      routeId: c.routeId,
      payer: this.auth.payer,
      amountAtomic: c.amountAtomic,
      nonce: c.nonce,
      network: c.network,
      ...extra,
    }
    this.o.ledger.record(e)
    this.o.metrics?.paymentEvent(e)
  }

  /** The settlement receipt headers (v1 and v2 names) of a transaction; none without one. */
  receiptHeaders(transaction: string | null | undefined): Record<string, string> {
    if (!transaction) return {}
    const { proof, terms } = this.auth
    const receipt: Receipt = {
      success: true,
      transaction,
      network: proof.x402Version === 1 ? terms.network.name : terms.network.caip2,
      payer: proof.authorization.from,
    }
    const encoded = Buffer.from(JSON.stringify(receipt)).toString('base64')
    return { 'X-PAYMENT-RESPONSE': encoded, 'PAYMENT-RESPONSE': encoded }
  }
}

/** The 402 of a payment that could not be settled: the answer is not served, nothing was charged. */
export function settlementFailed(g: GateContext, req: PaidRequest, reason: string): ApiError {
  return g.refuse(
    req,
    'settlement_failed',
    'The payment could not be settled, so the answer is not served; nothing was charged. Sign a new payment (or fund the payer) and retry.',
    { reason },
  )
}
