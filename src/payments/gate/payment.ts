/**
 * One paid request inside the gate, from its claim to its answer: its ledger key and claim, the events it
 * records, how far its run got (what the shutdown deadline reads), its receipt, and what its steps
 * (claim.ts, paid-work.ts, settle.ts) need of the gate, named one by one.
 */
import type { PaymentRequirements } from '@x402/core/types'
import { type ApiError, redact } from '../../core'
import type { Authorized, GateOptions, PaidRequest, RefusalCode } from './gate-contract'
import type { PaymentClaim, PaymentEvent, PaymentEventKind, StoredArtifact } from '../../ledger'
import type { Receipt } from '../settler'
import { payloadDigest } from './payment-id'
import { payerOf } from './proof'
import { batchClaimOf } from '../batch/batch-proof'

/** What the shutdown deadline did to a paid request still running: see `PaymentGate.cutOff`. */
export type CutOutcome = 'released' | 'settling' | 'served'

/** What a payment's steps read of the gate: its parts, its clock and runs, and how it refuses. */
export interface PaymentNeeds
  extends Pick<
    GateOptions,
    'ledger' | 'settler' | 'reconciler' | 'verifyGuard' | 'deferred' | 'metrics' | 'logger' | 'artifactTtlSeconds'
  > {
  now(): number
  /** The gate's runs in this process: whether it is closed (the deadline), and a run a retry waits for. */
  runs: { readonly closed: boolean; runOf(key: string): Promise<void> | undefined }
  /** A 402 refusal of `req`, carrying its route's requirements. */
  refuse(req: PaidRequest, code: RefusalCode, message: string, details?: Record<string, unknown>): ApiError
  /** Batch-settlement's corrective 402: its error is the reason code, and `accept` (with the channel's state) replaces its like. */
  correct(req: PaidRequest, message: string, reason: string, accept: PaymentRequirements): ApiError
}

export class Payment {
  /** The ledger's key: network, asset, payer and nonce (one authorization buys one request). */
  readonly key: string
  readonly claim: PaymentClaim
  /** Set by the claim: the claim was taken over from a process that died (it may have settled before). */
  takenOver = false
  /** Verifying or running the handler, settling, or what the ledger already says once the settlement is known. */
  private phase: 'work' | 'settle' | CutOutcome = 'work'
  /** Built before settling: what a settlement cut off by the deadline is parked with. */
  private kept?: StoredArtifact
  /** Set by the cut-off: the ledger already says what became of this payment. */
  private cutAs?: CutOutcome

  constructor(
    readonly auth: Authorized,
    readonly needs: PaymentNeeds,
  ) {
    const { req, terms, payer, proof } = auth
    const held = proof.batch
      ? batchClaimOf(proof.batch, terms.network, terms.amountAtomic)
      : {
          key: `${terms.network.caip2}:${terms.network.asset}:${proof.authorization.from}:${proof.authorization.nonce}`.toLowerCase(),
          nonce: proof.authorization.nonce.toLowerCase(),
          amountAtomic: terms.amountAtomic.toString(),
          validBefore: proof.authorization.validBefore,
        }
    this.key = held.key
    this.claim = {
      key: this.key,
      network: terms.network.caip2,
      payer,
      nonce: held.nonce,
      routeId: req.route.id,
      fingerprint: req.fingerprint,
      amountAtomic: held.amountAtomic,
      requestId: req.requestId,
      ...(held.validBefore ? { validBefore: held.validBefore } : {}),
      ...(proof.paymentId ? { paymentId: proof.paymentId, payloadDigest: payloadDigest(proof.raw) } : {}),
    }
  }

  get req(): PaidRequest {
    return this.auth.req
  }

  /** A 402 refusal of this payment's request, carrying its route's requirements. */
  refuse(code: RefusalCode, message: string, details?: Record<string, unknown>): ApiError {
    return this.needs.refuse(this.auth.req, code, message, details)
  }

  /** The corrective 402 of a batch voucher whose base is not the channel's (the buyer's client resyncs from it). */
  correct(message: string, reason: string, accept: PaymentRequirements): ApiError {
    return this.needs.correct(this.auth.req, message, reason, accept)
  }

  /** The 402 of a payment that could not be settled: the answer is not served, nothing was charged. */
  settlementFailed(reason: string): ApiError {
    return this.refuse(
      'settlement_failed',
      'The payment could not be settled, so the answer is not served; nothing was charged. Sign a new payment (or fund the payer) and retry.',
      { reason },
    )
  }

  /** Records a payment event in the ledger and the metrics. */
  readonly emit = (event: PaymentEventKind, extra: { txHash?: string; detail?: string } = {}): void => {
    const e = this.event(event, extra)
    this.needs.ledger.record(e)
    this.needs.metrics?.paymentEvent(e)
  }

  /** A refusal before any work (the verification failed): counted in the metrics, nothing recorded (PaymentLedger.forget). */
  readonly refused = (detail: string): void => {
    this.needs.metrics?.paymentEvent(this.event('failed', { detail }))
  }

  private event(event: PaymentEventKind, extra: { txHash?: string; detail?: string }): PaymentEvent {
    const claim = this.claim
    return {
      event,
      at: this.needs.now(),
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
  receipt(transaction: string | null | undefined, settled?: Receipt): { receipt?: Receipt } {
    // Batch-settlement: a voucher's receipt has no transaction, and always carries the channel's running
    // total, also when its stored answer is sent again (its ceiling is the total after its charge).
    if (settled?.extra) return { receipt: { ...this.settledReceipt(transaction ?? ''), extra: settled.extra } }
    const batch = this.auth.proof.batch
    if (batch?.type === 'voucher') {
      const channelState = { channelId: batch.channelId, chargedCumulativeAmount: batch.maxClaimable.toString() }
      return { receipt: { ...this.settledReceipt(''), extra: { channelState, chargedAmount: this.claim.amountAtomic } } }
    }
    if (transaction) return { receipt: this.settledReceipt(transaction) }
    return this.needs.settler.mode === 'local' ? { receipt: this.settledReceipt('') } : {}
  }

  /** The network paid on, as the proof's x402 version names it (a v1 name, or a CAIP-2 id). */
  get network(): string {
    const { proof, terms } = this.auth
    return proof.x402Version === 1 ? (terms.network.v1 ?? terms.network.caip2) : terms.network.caip2
  }

  private settledReceipt(transaction: string): Receipt {
    return { success: true, transaction, network: this.network, payer: payerOf(this.auth.proof) }
  }

  /** Whether the shutdown deadline cut this run off (then its own steps must not change the ledger). */
  get cut(): boolean {
    return this.cutAs !== undefined
  }

  /** The answer to store, kept before settling begins. */
  keep(artifact: StoredArtifact): void {
    this.kept = artifact
  }

  get artifact(): StoredArtifact {
    if (!this.kept) throw new Error('payment: no answer kept before settling')
    return this.kept
  }

  /** Money may move from now on. */
  settling(): void {
    this.phase = 'settle'
  }

  /** The settlement's outcome is known and in the ledger (`settling`: parked as pending). */
  settled(as: CutOutcome): void {
    this.phase = as
  }

  /**
   * The deadline's verdict on this run, recorded in the ledger: not yet settling, released as a failed
   * handler is (nothing moved; the proof buys its request again); settling, parked as pending with its
   * answer for the reconciler or the retry to find on chain; settlement known, left as it is.
   */
  cutOff(now: number): CutOutcome | undefined {
    if (this.cutAs) return undefined
    if (this.phase === 'work') {
      this.cutAs = 'released'
      this.needs.ledger.release(this.key, now)
      this.emit('failed', { detail: 'shutdown: cut off before settlement' })
    } else if (this.phase === 'settle') {
      this.cutAs = 'settling'
      this.needs.ledger.park(this.key, this.artifact, now)
      this.emit('pending', { detail: 'shutdown: cut off while settling' })
    } else {
      this.cutAs = this.phase // the settlement's outcome is in the ledger already, being committed
    }
    return this.cutAs
  }
}
