import type { Proof } from './proof'
import type { PaymentTerms } from './requirements'

/** Outcome of settling a verified payment after its handler answered. */
export interface Settlement {
  /** Receipt to return in X-PAYMENT-RESPONSE / PAYMENT-RESPONSE; absent when nothing was settled on chain. */
  receipt?: { success: boolean; transaction: string; network: string; payer: string }
}

/**
 * The seam where settlement happens: verify -> handler -> settle only when the handler answered < 400.
 * Facilitator and self-settlement modes plug in here; local mode verifies offline and settles nothing.
 */
export interface Settler {
  readonly mode: string
  settle(proof: Proof, terms: PaymentTerms, payer: `0x${string}`): Promise<Settlement>
}

export const localSettler: Settler = {
  mode: 'local',
  async settle() {
    return {}
  },
}
