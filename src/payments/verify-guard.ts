/**
 * What a validly signed proof from an empty wallet may cost the seller: at most one verification call,
 * and then nothing for a while. Signing such proofs is free (~1 ms each), and each one would reach the
 * facilitator's `/verify` (its quota, the seller's CPU); so, just before that call (after the claim,
 * which a SQLite ledger holds in memory only: a refusal here leaves nothing on disk):
 *
 * - a payer whose verification just failed for a reason that does not change within seconds (no funds,
 *   wrong network or asset) is refused from memory for REFUSAL_MEMORY_MS;
 * - payers this instance has not served yet share a budget of verification calls (a rate and a number in
 *   flight); past it they get `503 verification_busy` with Retry-After, before anything is claimed;
 * - payers it has served (in memory, the most recent KNOWN_PAYERS) are held back only by the overall
 *   number of calls in flight, so a flood of new wallets never queues them.
 */
import { ApiError, verificationBusy } from '../core/errors'
import type { VerifyOutcome } from './settlement'

/**
 * Whether the proof's payer is proven by its ECDSA signature (65 bytes). A contract wallet's signature
 * is checked only by the facilitator, so anyone could name any payer in one: such a payer is never
 * treated as known (no budget bypass) and never remembered as refused (no locking a real payer out).
 */
export const provenPayer = (auth: { proof: { signature: string } }): boolean => auth.proof.signature.length === 132

/** How long a durable refusal is remembered: long enough to absorb a flood, short enough for a top-up. */
export const REFUSAL_MEMORY_MS = 30_000
const REMEMBERED_REFUSALS = 100_000
const KNOWN_PAYERS = 100_000
/**
 * Reasons a facilitator gives that will not change for this payer within seconds: its wallet has no
 * funds (@x402/evm's facilitator says `invalid_exact_evm_transaction_simulation_failed` for an empty
 * wallet, others `insufficient_funds`). A wrong network, scheme, asset or recipient is the proof's, not
 * the wallet's: the same payer's next proof may be right, so it is not remembered.
 */
const DURABLE = /insufficient|balance|funds|simulation_failed/i

export interface VerifyLimits {
  /** Verification calls in flight, all payers together. */
  concurrency: number
  /** Verification calls per second for payers not yet served (a token bucket with a burst of as many). */
  newPayersPerSecond: number
}

/** A verification slot: release it once the call is answered. */
export interface VerifySlot {
  release(): void
}

export class VerifyGuard {
  private inFlight = 0
  private tokens: number
  private refilledAt: number
  private readonly refusals = new Map<string, { until: number; reason: string; message: string }>()
  private readonly known = new Set<string>()

  constructor(
    private readonly limits: VerifyLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limits.newPayersPerSecond
    this.refilledAt = now()
  }

  /** A slot for a verification call, or the answer that refuses it now: a remembered refusal (402) or 503 busy. */
  admit(payer: string, proven: boolean, refuse: (reason: string, message: string) => ApiError): VerifySlot | ApiError {
    const key = payer.toLowerCase()
    const remembered = proven ? this.refusals.get(key) : undefined
    if (remembered) {
      if (remembered.until > this.now())
        return refuse(remembered.reason, `${remembered.message} (remembered: refused less than ${REFUSAL_MEMORY_MS / 1000} s ago)`)
      this.refusals.delete(key)
    }
    if (this.inFlight >= this.limits.concurrency) return verificationBusy(1)
    if (!proven || !this.known.has(key)) {
      this.refill()
      if (this.tokens < 1) return verificationBusy(Math.max(1, Math.ceil((1 - this.tokens) / this.limits.newPayersPerSecond)))
      this.tokens -= 1
    }
    this.inFlight++
    let released = false
    return {
      release: () => {
        if (released) return
        released = true
        this.inFlight--
      },
    }
  }

  /** The facilitator refused this payer's payment; a durable reason is remembered. */
  refused(payer: string, proven: boolean, verdict: Extract<VerifyOutcome, { ok: false }>): void {
    if (!proven || verdict.unavailable || !DURABLE.test(verdict.reason)) return
    if (this.refusals.size >= REMEMBERED_REFUSALS) this.refusals.delete(this.refusals.keys().next().value as string)
    this.refusals.set(payer.toLowerCase(), { until: this.now() + REFUSAL_MEMORY_MS, reason: verdict.reason, message: verdict.message })
  }

  /** This payer's payment was served: it is not held back by the new payers' budget any more. */
  served(payer: string, proven: boolean): void {
    if (!proven) return
    const key = payer.toLowerCase()
    this.known.delete(key) // most recent last
    this.known.add(key)
    if (this.known.size > KNOWN_PAYERS) this.known.delete(this.known.values().next().value as string)
    this.refusals.delete(key)
  }

  private refill(): void {
    const now = this.now()
    const rate = this.limits.newPayersPerSecond
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate)
    this.refilledAt = now
  }
}
