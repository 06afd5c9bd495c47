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
}

export type VerifyOutcome =
  | { ok: true }
  /** `unavailable`: the facilitator could not be asked (down, timed out): a 502, not the payer's fault. */
  | { ok: false; reason: string; message: string; unavailable?: boolean }

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
}

export const localSettler: Settler = {
  mode: 'local',
  async settle() {
    return { status: 'local' }
  },
}
