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
 * - within that budget, one client address (an IPv6 client by its prefix) may take at most a
 *   CLIENT_SHARE of the rate once its first burst is spent: a flood from one address or /64 leaves the
 *   rest to new buyers elsewhere.
 *   Many addresses flooding together can still use the whole budget (then every new payer waits its
 *   turn, and payers already served are not held back);
 * - payers it has served (in memory, the most recent KNOWN_PAYERS) are held back only by the overall
 *   number of calls in flight, so a flood of new wallets never queues them.
 */
import { ApiError, verificationBusy } from '../../core'
import type { VerifyOutcome } from '../settler'
import type { Proof } from './proof'

/**
 * Whether the proof's payer is proven by its ECDSA signature (65 bytes). A contract wallet's signature
 * is checked only by the facilitator, so anyone could name any payer in one: such a payer is never
 * treated as known (no budget bypass) and never remembered as refused (no locking a real payer out).
 */
export const provenPayer = (auth: { proof: Pick<Proof, 'signature' | 'batch'> }): boolean =>
  auth.proof.signature.length === 132 && auth.proof.batch?.config.payerAuthorizer !== '0x0000000000000000000000000000000000000000'

/** How long a durable refusal is remembered: long enough to absorb a flood, short enough for a top-up. */
export const REFUSAL_MEMORY_MS = 30_000
const REMEMBERED_REFUSALS = 100_000
const KNOWN_PAYERS = 100_000
/** The most of the new payers' rate one client address may use. */
export const CLIENT_SHARE = 0.25
/** Client addresses whose share is tracked at once (the least recently seen forgotten first). */
const TRACKED_CLIENTS = 10_000

/** A token bucket: `rate` tokens a second, holding at most `burst`. */
class Bucket {
  private tokens: number
  private at: number

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst
    this.at = now
  }

  /** Seconds until a token is there (0: there is one now). */
  wait(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate)
    this.at = now
    return this.tokens >= 1 ? 0 : (1 - this.tokens) / this.rate
  }

  take(): void {
    this.tokens -= 1
  }
}
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
  private readonly budget: Bucket
  /** Each client address's share of the new payers' budget. */
  private readonly shares = new Map<string, Bucket>()
  private readonly refusals = new Map<string, { until: number; reason: string; message: string }>()
  private readonly known = new Set<string>()

  constructor(
    private readonly limits: VerifyLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.budget = new Bucket(limits.newPayersPerSecond, limits.newPayersPerSecond, now())
  }

  /**
   * A client address's share: CLIENT_SHARE of the rate over time, with the whole budget's burst (a client
   * alone is not held back; one that keeps asking is held to its share, whoever else asks).
   */
  private shareOf(client: string): Bucket {
    let share = this.shares.get(client)
    if (share)
      this.shares.delete(client) // most recent last
    else {
      const rate = this.limits.newPayersPerSecond * CLIENT_SHARE
      share = new Bucket(rate, Math.max(1, this.limits.newPayersPerSecond), this.now())
      if (this.shares.size >= TRACKED_CLIENTS) this.shares.delete(this.shares.keys().next().value as string)
    }
    this.shares.set(client, share)
    return share
  }

  /**
   * A slot for a verification call, or the answer that refuses it now: a remembered refusal (402) or 503
   * busy. `clientKey`: the caller's address as rate limits key it, asked for a new payer only (none over a
   * transport without one).
   */
  admit(
    payer: string,
    proven: boolean,
    refuse: (reason: string, message: string) => ApiError,
    clientKey?: () => string | undefined,
  ): VerifySlot | ApiError {
    const key = payer.toLowerCase()
    const remembered = proven ? this.refusals.get(key) : undefined
    if (remembered) {
      if (remembered.until > this.now())
        return refuse(remembered.reason, `${remembered.message} (remembered: refused less than ${REFUSAL_MEMORY_MS / 1000} s ago)`)
      this.refusals.delete(key)
    }
    if (this.inFlight >= this.limits.concurrency) return verificationBusy(1)
    if (!proven || !this.known.has(key)) {
      const now = this.now()
      const client = clientKey?.()
      const share = client === undefined ? undefined : this.shareOf(client)
      const wait = Math.max(share?.wait(now) ?? 0, this.budget.wait(now))
      if (wait > 0) return verificationBusy(Math.max(1, Math.ceil(wait)))
      share?.take()
      this.budget.take()
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
}
