import type { PaymentRequirements } from '@x402/core/types'
import type { RouteSpec } from '../catalog'
import type { Proof } from './gate/proof'
import type { PaymentTerms } from './gate/requirements'

/** `local` verifies offline and settles nothing; `facilitator` and `self` verify and settle on chain. */
export type PaymentMode = 'local' | 'facilitator' | 'self'
export const PAYMENT_MODES: readonly PaymentMode[] = ['local', 'facilitator', 'self']

/** What the settler needs of one verified request. */
export interface SettlementInput {
  proof: Proof
  terms: PaymentTerms
  route: RouteSpec
  /** Absolute URL of the resource: the `resource` of the requirements the client paid. */
  resourceUrl: string
}

/** The receipt returned in X-PAYMENT-RESPONSE (v1) and PAYMENT-RESPONSE (v2). */
export interface Receipt {
  success: boolean
  transaction: string
  network: string
  payer: string
  /**
   * A deferred settlement (SETTLE_MODE=deferred): the answer was released on verification and the transfer
   * is still to come (`transaction` is empty). x402's own place for what a seller adds to a receipt.
   */
  extensions?: { settlement: { status: 'pending'; lookup: string; artifact: string } }
  /**
   * Batch-settlement: the channel after this charge (`channelState.chargedCumulativeAmount`) and the
   * charge (`chargedAmount`), which the buyer's client keeps its running total by. A voucher's receipt has
   * no transaction: the charge is claimed on chain later, with others.
   */
  extra?: Record<string, unknown>
}

export type VerifyOutcome =
  /** `skipHandler`: a batch refund request, answered without running the route (and never charged). */
  | { ok: true; skipHandler?: true }
  /** `unavailable`: the facilitator could not be asked (down, timed out): a 502, not the payer's fault. */
  | {
      ok: false
      reason: string
      message: string
      unavailable?: boolean
      /** Batch-settlement's corrective 402: the accept, with the channel's state, that the buyer's client resyncs from. */
      correction?: PaymentRequirements
    }

export type SettleOutcome =
  /** Verified offline; nothing moves on chain (development). */
  | { status: 'local' }
  | { status: 'settled'; receipt: Receipt }
  /** The outcome is unknown (timeout, broken connection, transaction not yet mined): reconcile later, never charge again. */
  | { status: 'pending'; reason: string; transaction?: string }
  /** Definitely not settled: nothing moved. `unavailable` when the facilitator could not be reached at all. */
  | { status: 'failed'; reason: string; transaction?: string; unavailable?: boolean }

/**
 * The seam where money moves: verify (before the handler, facilitator modes) -> handler -> settle only
 * when the handler answered < 400. Local mode verifies offline in the gate and settles nothing.
 */
export interface Settler {
  readonly mode: PaymentMode
  verify?(input: SettlementInput): Promise<VerifyOutcome>
  settle(input: SettlementInput): Promise<SettleOutcome>
  /** A verified payment that will not be settled (the work failed): a batch channel's reservation is freed. */
  cancel?(input: SettlementInput): Promise<void>
  /** Whether this payment was charged already (a batch voucher the channel holds): served without a second charge. */
  chargedBefore?(input: SettlementInput): Promise<boolean>
  /** Batch-settlement's corrective 402 entry for a voucher that does not continue its channel. */
  correct?(input: SettlementInput, reason: string): Promise<PaymentRequirements | undefined>
}

export const localSettler: Settler = {
  mode: 'local',
  async settle() {
    return { status: 'local' }
  },
}
